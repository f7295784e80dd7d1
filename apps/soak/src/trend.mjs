// The memory trend of a soak, told honestly: a least-squares line through the samples after warm-up,
// its slope with a 95% interval, the growth it predicts over the window against the scatter of the
// samples around it, and the slope of the second half alone (does it level off?).

/** Least-squares fit of `[x ms, y bytes]` points: slope in bytes/min, its standard error, residual SD. */
export function fitLine(points) {
  const n = points.length;
  if (n < 3) return { n, slope: Number.NaN, se: Number.NaN, sd: Number.NaN, spanMs: 0 };
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const [x, y] of points) {
    sxx += (x - mx) ** 2;
    sxy += (x - mx) * (y - my);
  }
  const slope = sxy / sxx;
  let ssr = 0;
  for (const [x, y] of points) ssr += (y - (my + slope * (x - mx))) ** 2;
  const sd = Math.sqrt(ssr / (n - 2));
  return {
    n,
    slope: slope * 60_000,
    se: (sd / Math.sqrt(sxx)) * 60_000,
    sd,
    spanMs: points[n - 1][0] - points[0][0],
  };
}

/**
 * The trend of one series after warm-up: `flat` when the 95% interval of the slope holds 0 or the growth
 * the line predicts over the whole window is within twice the samples' scatter around it (GC timing
 * and the sampling moment move a heap by that much); else `rising` or `falling`. `secondHalf` is the
 * slope of the later half of the samples alone: a series that levels off has one near 0.
 */
export function trendOf(points) {
  const all = fitLine(points);
  const half = fitLine(points.slice(Math.floor(points.length / 2)));
  const rise = (all.slope * all.spanMs) / 60_000;
  let verdict = "n/a";
  if (Number.isFinite(all.slope)) {
    const holdsZero = Math.abs(all.slope) <= 1.96 * all.se;
    const withinScatter = Math.abs(rise) <= 2 * all.sd;
    verdict = holdsZero || withinScatter ? "flat" : all.slope > 0 ? "rising" : "falling";
  }
  return {
    verdict,
    kibPerMin: all.slope / 1024,
    ciKibPerMin: (1.96 * all.se) / 1024,
    riseMib: rise / 2 ** 20,
    scatterMib: all.sd / 2 ** 20,
    secondHalfKibPerMin: half.slope / 1024,
    samples: all.n,
  };
}
