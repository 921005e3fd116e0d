package vigor

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// WriteJSON writes the leaderboard as indented JSON.
func (lb *Leaderboard) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(lb)
}

func (lb *Leaderboard) intro() string {
	s := fmt.Sprintf("ViGoR leaderboard — split %s; judge condition %s, runs %s; scores on a 0–1 scale, judge / humans over the same items",
		lb.Split, lb.Condition, RunList(lb.Runs))
	if lb.CI.Replicates > 0 {
		s += fmt.Sprintf("; %.0f%% intervals from %d bootstrap replicates (seed %d; %s)", 100*lb.CI.Level, lb.CI.Replicates, lb.CI.Seed, lb.CI.Method)
	}
	return s
}

// columns lists the group's dimension columns in order.
func (lb *Leaderboard) columns(by, group string, t Track) []string {
	var cols []string
	for _, ra := range lb.Rankings {
		if ra.By == by && ra.Group == group && ra.Track == t {
			cols = append(cols, ra.Dimension)
		}
	}
	return cols
}

func (lb *Leaderboard) groupModels(by, group string, t Track) []string {
	var ms []string
	for _, e := range lb.Entries {
		if e.By == by && e.Group == group && e.Track == t && e.Dimension == DimAverage {
			ms = append(ms, e.Model)
		}
	}
	return ms
}

func (lb *Leaderboard) entry(by, group string, t Track, dim, model string) *LeaderEntry {
	for i := range lb.Entries {
		e := &lb.Entries[i]
		if e.By == by && e.Group == group && e.Track == t && e.Dimension == dim && e.Model == model {
			return e
		}
	}
	return nil
}

// table3 is one group's Table 3: a row per model, per dimension the
// judge's and the humans' percentages.
func (lb *Leaderboard) table3(by, group string, t Track, withCI bool) (header []string, rows [][]string) {
	cols := lb.columns(by, group, t)
	header = []string{"Model", "Items"}
	for _, c := range cols {
		short := "Avg"
		if d, ok := ParseDim(c); ok && c != DimAverage {
			short = d.Short(t)
		}
		header = append(header, short+" judge", short+" humans")
	}
	for _, m := range lb.groupModels(by, group, t) {
		row := []string{m, ""}
		items := 0
		for _, c := range cols {
			e := lb.entry(by, group, t, c, m)
			items = max(items, e.Items)
			j, h := fmtPct(e.Judge), fmtPct(e.Human)
			if withCI {
				j += " " + pctInterval(e.JudgeCI)
				h += " " + pctInterval(e.HumanCI)
			}
			row = append(row, j, h)
		}
		row[1] = strconv.Itoa(items)
		rows = append(rows, row)
	}
	return header, rows
}

var rankHeader = []string{"Group", "Track", "Dimension", "Models", "Kendall τ-b", "Spearman ρ", "Runs' τ-b (mean; pairs)"}

func (ra *RankAgreement) cells() []string {
	pairs := make([]string, len(ra.RunStability))
	for i, p := range ra.RunStability {
		pairs[i] = fmt.Sprintf("%d–%d %s", p.A, p.B, fmtNum(p.Tau))
	}
	group := ra.Group
	if ra.By != "all" {
		group = ra.By + " " + ra.Group
	}
	return []string{group, string(ra.Track), ra.Dimension, strconv.Itoa(ra.Models),
		fmtNum(ra.KendallTauB) + " " + ra.KendallCI.Format(3), fmtNum(ra.SpearmanRho) + " " + ra.SpearmanCI.Format(3),
		fmtNum(ra.MeanRunTau) + "; " + strings.Join(pairs, ", ")}
}

// WriteText writes the whole-split Table 3 per track and the ranking
// agreement of every group.
func (lb *Leaderboard) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	line := func(cells []string) { fmt.Fprintln(tw, strings.Join(cells, "\t")) }
	fmt.Fprintln(tw, lb.intro()+".")
	for _, t := range Tracks {
		header, rows := lb.table3("all", "all", t, false)
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(tw, "\n%s track\n", t)
		line(header)
		for _, r := range rows {
			line(r)
		}
	}
	fmt.Fprintf(tw, "\nRanking agreement, judge vs humans (intervals in brackets); stability: τ-b between judge runs\n")
	line(rankHeader)
	for i := range lb.Rankings {
		if lb.Rankings[i].By != "subdomain" {
			line(lb.Rankings[i].cells())
		}
	}
	fmt.Fprintln(tw, "\nPer subdomain, and every group's table with intervals: the Markdown, JSON and CSV reports.")
	if err := tw.Flush(); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteMarkdown writes Table 3 with intervals for every group, then the
// ranking agreement.
func (lb *Leaderboard) WriteMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	table := func(header []string, rows [][]string) {
		mdRow(bw, header)
		fmt.Fprintf(bw, "|%s\n", strings.Repeat("---|", len(header)))
		for _, r := range rows {
			mdRow(bw, r)
		}
	}
	fmt.Fprintf(bw, "# ViGoR leaderboard: %s\n\n%s.\n", lb.Split, lb.intro())
	seen := make(map[[3]string]bool)
	for _, ra := range lb.Rankings {
		k := [3]string{ra.By, ra.Group, string(ra.Track)}
		if seen[k] {
			continue
		}
		seen[k] = true
		title := "All items"
		if ra.By != "all" {
			title = ra.By + " " + ra.Group
		}
		fmt.Fprintf(bw, "\n## %s, %s track\n\n", title, ra.Track)
		table(lb.table3(ra.By, ra.Group, ra.Track, lb.CI.Replicates > 0))
	}
	fmt.Fprintf(bw, "\n## Ranking agreement\n\n")
	var rows [][]string
	for i := range lb.Rankings {
		rows = append(rows, lb.Rankings[i].cells())
	}
	table(rankHeader, rows)
	return bw.Flush()
}

// LeaderboardCSVColumns is the header of WriteCSV.
var LeaderboardCSVColumns = [...]string{"section", "by", "group", "track", "dimension", "model", "statistic", "value", "ci_low", "ci_high", "n"}

// WriteCSV writes every figure as one long table, one figure a row, at
// full precision: the entries (judge, human, their ranks), the ranking
// agreement (kendall_tau_b, spearman_rho) and each pair of runs' τ-b
// (model "run A-B").
func (lb *Leaderboard) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(LeaderboardCSVColumns[:])
	row := func(section, by, group string, t Track, dim, model, stat string, v Value, ci Interval, n int) {
		lo, hi := "", ""
		if ci.OK() {
			lo, hi = csvNum(ci.Lo), csvNum(ci.Hi)
		}
		cw.Write([]string{section, by, group, string(t), dim, model, stat, csvNum(v), lo, hi, strconv.Itoa(n)})
	}
	for _, e := range lb.Entries {
		row("leaderboard", e.By, e.Group, e.Track, e.Dimension, e.Model, "judge", e.Judge, e.JudgeCI, e.Items)
		row("leaderboard", e.By, e.Group, e.Track, e.Dimension, e.Model, "human", e.Human, e.HumanCI, e.Items)
		row("leaderboard", e.By, e.Group, e.Track, e.Dimension, e.Model, "judge_rank", e.JudgeRank, Interval{}, e.Items)
		row("leaderboard", e.By, e.Group, e.Track, e.Dimension, e.Model, "human_rank", e.HumanRank, Interval{}, e.Items)
	}
	for _, ra := range lb.Rankings {
		row("ranking", ra.By, ra.Group, ra.Track, ra.Dimension, "", "kendall_tau_b", ra.KendallTauB, ra.KendallCI, ra.Models)
		row("ranking", ra.By, ra.Group, ra.Track, ra.Dimension, "", "spearman_rho", ra.SpearmanRho, ra.SpearmanCI, ra.Models)
		row("ranking", ra.By, ra.Group, ra.Track, ra.Dimension, "", "mean_run_tau_b", ra.MeanRunTau, Interval{}, ra.Models)
		for _, p := range ra.RunStability {
			row("run_stability", ra.By, ra.Group, ra.Track, ra.Dimension, fmt.Sprintf("run %d-%d", p.A, p.B), "tau_b", p.Tau, Interval{}, p.Models)
		}
	}
	cw.Flush()
	return cw.Error()
}
