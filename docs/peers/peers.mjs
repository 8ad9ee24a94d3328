// Times hnswlib-node's BruteforceSearch on the vectors written by
// `peers gen` and prints one JSON line shaped like `peers run`'s.
//
//   node peers.mjs DIR [ROUNDS]   (ROUNDS default 2)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import hnswlib from 'hnswlib-node';

const K = 10;
const dir = process.argv[2] ?? 'peers-data';
const rounds = Number(process.argv[3] ?? 2);

// vectors.bin: "MKBPEERS", n, dim, queries (uint32 LE), 4 zero bytes, then
// n*dim and queries*dim float32 LE.
const buf = readFileSync(join(dir, 'vectors.bin'));
if (buf.toString('latin1', 0, 8) !== 'MKBPEERS') throw new Error('not a peers vector file');
const [n, dim, nq] = [8, 12, 16].map((off) => buf.readUInt32LE(off));
const floats = new Float32Array(buf.buffer.slice(buf.byteOffset + 24, buf.byteOffset + 24 + 4 * (n + nq) * dim));
const row = (i) => floats.subarray(i * dim, (i + 1) * dim);

// truth.bin: queries, K (uint32 LE), then queries*K ids.
const tb = readFileSync(join(dir, 'truth.bin'));
const truth = [];
for (let q = 0; q < tb.readUInt32LE(0); q++) {
  const k = tb.readUInt32LE(4);
  truth.push(Array.from({ length: k }, (_, j) => tb.readUInt32LE(8 + 4 * (q * k + j))));
}

// 'ip' scores 1 - dot product, with no normalisation (the vectors are unit
// length already), so the nearest are those with the highest dot product.
let start = process.hrtime.bigint();
const index = new hnswlib.BruteforceSearch('ip', dim);
index.initIndex(n);
for (let i = 0; i < n; i++) index.addPoint(Array.from(row(i)), i);
const loadS = Number(process.hrtime.bigint() - start) / 1e9;

// The API takes plain arrays; convert the queries before timing.
const queries = Array.from({ length: nq }, (_, q) => Array.from(row(n + q)));

let found = 0;
for (let q = 0; q < nq; q++) {
  const got = index.searchKnn(queries[q], K).neighbors;
  found += got.filter((id) => truth[q].includes(id)).length;
}

const quantile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.max(0, Math.min(Math.ceil(p * s.length) - 1, s.length - 1))];
};
const round3 = (x) => Math.round(x * 1000) / 1000;

const all = [];
const roundMedians = [];
for (let r = 0; r < rounds; r++) {
  const lat = [];
  for (let q = 0; q < nq; q++) {
    start = process.hrtime.bigint();
    index.searchKnn(queries[q], K);
    lat.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  all.push(...lat);
  roundMedians.push(round3(quantile(lat, 0.5)));
}

console.log(JSON.stringify({
  engine: 'hnswlib-node',
  threads: '1 (BruteforceSearch)',
  n, dim, queries: nq, rounds,
  median_ms: round3(quantile(all, 0.5)),
  p99_ms: round3(quantile(all, 0.99)),
  round_medians_ms: roundMedians,
  recall_at_10: found / (nq * K),
  load_s: loadS,
}));
