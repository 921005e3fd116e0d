// Reads a jigbench Hugging Face export with DuckDB (an independent parquet
// reader) and prints what the Go test checks: row counts per split, the
// columns and their types, the huggingface metadata, and the SHA-256 of
// every image's bytes.
// usage: node duckdb-check.js NODE_MODULES EXPORT_DIR
const path = require('path');
const crypto = require('crypto');
const duckdb = require(path.join(process.argv[2], '@duckdb/node-api'));

async function main() {
  const dir = process.argv[3];
  const inst = await duckdb.DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  const glob = (s) => `read_parquet('${path.join(dir, 'data', s + '-*.parquet')}')`;
  const out = { splits: {}, columns: [], metadata: null, images: {} };
  for (const split of ['train', 'eval']) {
    const r = await con.runAndReadAll(`SELECT count(*)::INTEGER AS n, count(DISTINCT filename)::INTEGER AS files FROM read_parquet('${path.join(dir, 'data', split + '-*.parquet')}', filename=true)`);
    out.splits[split] = r.getRowObjects()[0];
  }
  const d = await con.runAndReadAll(`DESCRIBE SELECT * FROM ${glob('*')}`);
  out.columns = d.getRowObjects().map((r) => [r.column_name, r.column_type]);
  const m = await con.runAndReadAll(`SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata('${path.join(dir, 'data', 'train-*.parquet')}') LIMIT 1`);
  const md = m.getRowObjects();
  if (md.length) out.metadata = { key: md[0].k, value: md[0].v };
  const imgs = await con.runAndReadAll(`SELECT id, condition, image.path AS p, image.bytes AS b, grid, seed, answer FROM ${glob('*')}`);
  for (const r of imgs.getRowObjects()) {
    out.images[r.id + ':' + r.condition] = {
      path: r.p, sha256: crypto.createHash('sha256').update(Buffer.from(r.b.bytes)).digest('hex'),
      grid: Number(r.grid), seed: String(r.seed), answer: r.answer,
    };
  }
  process.stdout.write(JSON.stringify(out));
}
main().catch((e) => { console.error(e); process.exit(1); });
