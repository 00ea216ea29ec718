/** The value below which a share `q` of the sorted values lies (the nearest rank); 0 for none. */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
}

/** The middle value (the upper of the two middle ones for an even count); 0 for none. */
export function median(values: readonly number[]): number {
  return quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

/** A ratio over interleaved rounds: the median of each round's ratio, and their range. */
export interface RoundRatio {
  median: number;
  low: number;
  high: number;
}

/** Round by round `ours[i] / theirs[i]`, so that the machine's drift within a round falls on both. */
export function roundRatio(ours: readonly number[], theirs: readonly number[]): RoundRatio {
  const ratios = ours.map((value, round) => value / (theirs[round] ?? Number.NaN)).filter(Number.isFinite);
  return { median: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) };
}
