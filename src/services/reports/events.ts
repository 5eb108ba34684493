// The report events a webhook can take, emitted where reports change (reports.service and,
// through it, every re-audit: the API, the dashboard and scheduled runs; a batch's pages send
// batch.page.completed instead of report.created). Each call records one
// delivery per matching enabled webhook in the caller's transaction (services.webhooks.emit);
// the report is read (in that transaction) only when some webhook takes the event.
// The report in a payload is the API's report summary, links included.
import { presentReportSummary } from '../../contract/reports/present.js';
import { presentDiff } from '../../contract/history/present.js';
import type { Db } from '../../store/database.js';
import { findReport } from '../../store/reports.repository.js';
import type { WebhooksServices } from '../webhooks/types.js';
import type { ReportSummary } from './types.js';
import type { ReportEvents } from '../shared/context.js';

export function createReportEvents(webhooks: WebhooksServices, publicUrl: string): ReportEvents {
  const summary = (r: ReportSummary) => presentReportSummary(r, publicUrl);
  const read = async (trx: Db, userId: number, id: number) => {
    const r = await findReport(trx, id, userId);
    if (!r) throw new Error(`report ${id} vanished inside its own transaction`);
    return summary(r);
  };
  return {
    async created(trx, userId, reportId) {
      await webhooks.emit(
        userId,
        'report.created',
        async () => ({ report: await read(trx, userId, reportId) }),
        { trx },
      );
    },
    async batchPageCompleted(trx, userId, reportId, batch) {
      await webhooks.emit(
        userId,
        'batch.page.completed',
        async () => ({ batch: { id: batch.id }, url: batch.url, report: await read(trx, userId, reportId) }),
        { trx },
      );
    },
    async completed(trx, userId, reportId, regression) {
      let report: ReturnType<typeof summary> | undefined;
      const data = async () => ({ report: (report ??= await read(trx, userId, reportId)) });
      await webhooks.emit(userId, 'report.completed', data, { trx });
      if (regression) {
        await webhooks.emit(
          userId,
          'report.regressed',
          async () => ({ ...(await data()), diff: presentDiff(regression, publicUrl) }),
          {
            trx,
          },
        );
      }
    },
    async failed(trx, report, reason) {
      await webhooks.emit(
        report.userId,
        'report.failed',
        { report: summary(report), reason },
        trx ? { trx } : {},
      );
    },
  };
}
