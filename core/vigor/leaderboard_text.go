package vigor

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
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
// judge's and the humans' percentages, with their intervals if withCI.
func (lb *Leaderboard) table3(by, group string, t Track, withCI bool) Table {
	tb := Table{Title: fmt.Sprintf("%s %s, %s track", by, group, t), Columns: []string{"Model", "Items"}}
	if by == "all" {
		tb.Title = fmt.Sprintf("Table 3, %s track", t)
		tb.Note = "Per model, judge and humans over the same items, in %."
		if withCI {
			tb.Note = "Per model, judge and humans over the same items, in %; intervals from the item bootstrap."
		}
	}
	cols := lb.columns(by, group, t)
	for _, c := range cols {
		short := "Avg"
		if d, ok := ParseDim(c); ok && c != DimAverage {
			short = d.Short(t)
		}
		tb.Columns = append(tb.Columns, short+" judge", short+" humans")
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
		tb.Rows = append(tb.Rows, row)
	}
	return tb
}

// rankTable is the ranking agreement of the whole split and each domain,
// and of each subdomain too if subdomains.
func (lb *Leaderboard) rankTable(subdomains bool) Table {
	tb := Table{Title: "Ranking agreement",
		Note: "Judge vs humans over the models (Kendall τ-b, Spearman ρ, intervals in brackets); " +
			"runs' τ-b: how alike the judge's runs rank the models.",
		Columns: []string{"Group", "Track", "Dimension", "Models", "Kendall τ-b", "Spearman ρ", "Runs' τ-b (mean; pairs)"}}
	for i := range lb.Rankings {
		if ra := &lb.Rankings[i]; subdomains || ra.By != "subdomain" {
			tb.Rows = append(tb.Rows, ra.cells())
		}
	}
	return tb
}

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

// splitTables are the whole split's Table 3 per track with items and the
// ranking agreement without subdomains.
func (lb *Leaderboard) splitTables(withCI bool) []Table {
	var ts []Table
	for _, t := range Tracks {
		if tb := lb.table3("all", "all", t, withCI); len(tb.Rows) > 0 {
			ts = append(ts, tb)
		}
	}
	return append(ts, lb.rankTable(false))
}

// Tables returns the tables the app shows: the whole split's Table 3 per
// track, with intervals when there are bootstrap replicates, and the
// ranking agreement of the split and each domain.
func (lb *Leaderboard) Tables() []Table { return lb.splitTables(lb.CI.Replicates > 0) }

// WriteText writes the whole split's Table 3 per track (without intervals,
// to fit a terminal) and the ranking agreement of the split and each domain.
func (lb *Leaderboard) WriteText(w io.Writer) error {
	return writeText(w, lb.intro()+".", lb.splitTables(false),
		"Per subdomain, and every group's table with intervals: the Markdown, JSON and CSV reports.")
}

// WriteMarkdown writes Table 3 with intervals for every group, then the
// ranking agreement of every group.
func (lb *Leaderboard) WriteMarkdown(w io.Writer) error {
	var ts []Table
	seen := make(map[[3]string]bool)
	for _, ra := range lb.Rankings {
		k := [3]string{ra.By, ra.Group, string(ra.Track)}
		if !seen[k] {
			seen[k] = true
			ts = append(ts, lb.table3(ra.By, ra.Group, ra.Track, lb.CI.Replicates > 0))
		}
	}
	return writeMarkdown(w, "ViGoR leaderboard: "+lb.Split, lb.intro()+".", append(ts, lb.rankTable(true)))
}

// LeaderboardCSVColumns is the header of WriteCSV.
var LeaderboardCSVColumns = [...]string{"section", "by", "group", "track", "dimension", "model", "statistic", "value", "ci_low", "ci_high", "n"}

// WriteCSV writes every figure as one long table, one figure a row, at
// full precision: the entries (judge, human, their ranks), the ranking
// agreement (kendall_tau_b, spearman_rho) and each pair of runs' τ-b
// (model "run A-B").
func (lb *Leaderboard) WriteCSV(w io.Writer) error {
	out := Table{Columns: LeaderboardCSVColumns[:]}
	row := func(section, by, group string, t Track, dim, model, stat string, v Value, ci Interval, n int) {
		lo, hi := "", ""
		if ci.OK() {
			lo, hi = csvNum(ci.Lo), csvNum(ci.Hi)
		}
		out.Rows = append(out.Rows, []string{section, by, group, string(t), dim, model, stat, csvNum(v), lo, hi, strconv.Itoa(n)})
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
	return out.writeCSV(w)
}
