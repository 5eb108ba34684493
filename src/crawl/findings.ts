// The site-level findings and the batch summary live in findings/ (one rule a file); this path
// re-exports them for the batch service's import.
export { computeFindings, computeSummary, type BatchSummary, type Finding } from './findings/index.js';
