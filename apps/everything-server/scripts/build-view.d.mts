/** The counter view as one HTML document; `extApps: "v1"` builds it with ext-apps 1.7.5's App. */
export function buildViewHtml(options?: { extApps?: "v1" | "v2" }): Promise<string>;
