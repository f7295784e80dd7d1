/** A progress notification's numbers, as the client hands them over. */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * Draws one progress line: a bar when the total is known, a counter otherwise. Pure, so it is tested
 * without a terminal; the CLI writes it to stderr with `\r` only when stderr is a TTY.
 */
export function renderProgress(update: ProgressUpdate, width = 24): string {
  const { progress, total, message } = update;
  const suffix = message ? ` ${message}` : "";
  if (total !== undefined && total > 0) {
    const ratio = Math.max(0, Math.min(1, progress / total));
    const filled = Math.round(ratio * width);
    const percent = String(Math.round(ratio * 100)).padStart(3, " ");
    return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${percent}%${suffix}`;
  }
  return `[${progress}]${suffix}`;
}
