// Aligned text columns for the CLI's lists (`keys list`, `users list`, `jobs counts|dead`):
// the first row is the header; every column but the last is padded to its widest cell.
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows.reduce<number[]>((w, r) => r.map((c, i) => Math.max(w[i] ?? 0, c.length)), []);
  return rows
    .map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  '))
    .join('\n');
}
