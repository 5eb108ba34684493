// Preloaded into a measured process (node --import): at exit, appends the process's peak RSS
// (kilobytes, from getrusage) to the file named by PAGEGRADE_RSS_FILE. Used by bench/cli-start.ts.
import { appendFileSync } from 'node:fs';

const file = process.env.PAGEGRADE_RSS_FILE;
if (file) process.on('exit', () => appendFileSync(file, `${process.resourceUsage().maxRSS}\n`));
