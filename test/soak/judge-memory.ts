/**
 * `npm run soak:judge -- <csv> [max % per hour]`: judges the memory samples a soak wrote
 * (SOAK_MEMORY_CSV) again with the plateau rule of ./memory-plateau.ts, e.g. a run that was
 * stopped early, or one judged by an older rule. Exits 1 when memory did not reach a plateau.
 */
import { readFile } from 'node:fs/promises';
import { judgePlateau } from './memory-plateau';

const [file, bound = process.env.SOAK_MAX_GROWTH_PERCENT_PER_HOUR ?? '5'] = process.argv.slice(2);
if (!file) {
  console.error('usage: npm run soak:judge -- <memory csv> [max % per hour]');
  process.exit(2);
}
const [header, ...lines] = (await readFile(file, 'utf8')).trim().split('\n');
const columns = header.split(',');
const MiB = 1024 * 1024;
const underLoad = lines
  .map((line) => Object.fromEntries(line.split(',').map((value, i) => [columns[i], value])))
  .filter((row) => row.phase === 'load')
  .map((row) => ({
    t: Number(row.t_s),
    rssBytes: Number(row.rss_mib) * MiB,
    heapUsedBytes: Number(row.heap_used_mib) * MiB,
    heapTotalBytes: Number(row.heap_total_mib) * MiB,
  }));
const verdict = judgePlateau(underLoad, Number(bound));
console.log(
  JSON.stringify(
    { file, samplesUnderLoad: underLoad.length, maxGrowthPercentPerHour: Number(bound), ...verdict },
    null,
    2,
  ),
);
process.exit(verdict.plateau ? 0 : 1);
