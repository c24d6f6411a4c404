import { readdirSync, readFileSync } from 'node:fs';

/**
 * The child processes of this process's XML pools (invoices/fatturapa/xml-worker.ts) alive now, by pid, read from
 * Linux's /proc: a test kills one under a file, as the kernel's OOM killer or an operator would.
 */
export function xmlPoolChildren(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        // Fields after the command's closing parenthesis: state, then the parent's pid.
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === process.pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('xml-worker') ? [Number(entry)] : [];
      } catch {
        // The process ended while the list was read.
        return [];
      }
    });
}

/** Kills (SIGKILL) the first XML pool child that is not in `before`, as soon as it appears; its pid. */
export async function killNewXmlChild(before: readonly number[], timeoutMs = 60_000): Promise<number> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const child = xmlPoolChildren().find((pid) => !before.includes(pid));
    if (child !== undefined) {
      process.kill(child, 'SIGKILL');
      return child;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`No new XML pool child appeared within ${timeoutMs} ms`);
}
