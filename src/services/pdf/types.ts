// The PDF feature's service: branded PDF reports printed by Chromium (docs/rendering.md).
export interface PdfServices {
  /** null when PDFs can be printed here, otherwise why not (with how to install Chromium) */
  unavailable(): string | null;
  /**
   * Prints `document`; 422 under `render` without Chromium, 503 when the browser failed
   * (crashed, timed out) — the report is unchanged either way.
   */
  print(document: string, options: { footerTemplate: string }): Promise<Buffer>;
}
