// Branded PDF reports (docs/rendering.md, "Branded PDFs"): prints a self-contained HTML
// document (the report page's print view with the owner's branding, composed by
// src/web/report-pdf.ts) with the shared Chromium of rendered audits. Without Chromium: 422
// under `render`, saying why and how to install it (the report page's print stylesheet stays the
// way to print one).
import { AppError, validationError } from '../../errors.js';
import { INSTALL_HINT } from '../../render/hint.js';
import type { ServiceContext } from '../shared/context.js';
import type { PdfServices } from './types.js';

const FALLBACK =
  'Until then, print the report page from a browser (its print stylesheet lays it out for paper).';

export function createPdfServices(ctx: Pick<ServiceContext, 'renderer'>): PdfServices {
  const unavailable = (): string | null => {
    const r = ctx.renderer;
    if (!r?.pdf) return `PDF reports need Chromium, which this process was not given. ${INSTALL_HINT}`;
    const why = r.unavailable();
    return why === null ? null : why.replace(/^Rendered audits need/, 'PDF reports need');
  };
  return {
    unavailable,
    async print(document, options) {
      const why = unavailable();
      if (why !== null) throw validationError({ render: [`${why} ${FALLBACK}`] });
      try {
        const { pdf } = await ctx.renderer!.pdf!(document, options);
        return pdf;
      } catch (err) {
        const reason = err instanceof Error ? err.message.split('\n')[0]!.slice(0, 300) : String(err);
        throw new AppError(503, 'pdf_failed', `The PDF could not be printed (${reason}). Try again.`);
      }
    },
  };
}
