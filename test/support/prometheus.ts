/** One sample of Prometheus's text exposition format: `name{label="value",…} value`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  samples: Sample[];
  /** Every metric family of a `# TYPE` line, as PromQL names them (a histogram's `_bucket`, `_sum`, `_count` too). */
  names: Set<string>;
  /** The value of the one sample of `name` whose labels include `labels`; undefined when none. */
  value(name: string, labels?: Record<string, string>): number | undefined;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses a scrape (the text format prom-client writes). */
function parseScrape(text: string): Scrape {
  const samples: Sample[] = [];
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      const [, name, kind] = type;
      names.add(name);
      if (kind === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
      if (kind === 'summary') for (const suffix of ['_sum', '_count']) names.add(`${name}${suffix}`);
      continue;
    }
    const sample = SAMPLE.exec(line);
    if (!sample) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (sample[2] ?? '').matchAll(LABEL)) labels[key] = value;
    samples.push({ name: sample[1], labels, value: Number(sample[3]) });
  }
  return {
    samples,
    names,
    value(name, wanted = {}) {
      const matches = (sample: Sample) => Object.entries(wanted).every(([key, value]) => sample.labels[key] === value);
      return samples.find((sample) => sample.name === name && matches(sample))?.value;
    },
  };
}

/** GETs a metrics URL and parses it. */
export async function scrape(metricsUrl: string, headers: Record<string, string> = {}): Promise<Scrape> {
  const response = await fetch(metricsUrl, { headers });
  if (response.status !== 200) throw new Error(`GET ${metricsUrl} answered ${response.status}`);
  return parseScrape(await response.text());
}
