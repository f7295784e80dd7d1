/** The counter view as one HTML document (its script minified and inlined). */
export function buildViewHtml(): Promise<string>;
