/**
 * Preloaded (`node --import=FILE-URL-OF-THIS-MODULE`) into the Node commands the benchmarks and
 * the memory tests run: as the process exits it reports its CPU seconds and peak resident memory,
 * as JSON to the file $PDFPIPE_USAGE_FILE names, or else as a `peak-rss KIB` line on stderr.
 *
 * The peak is the kernel's high-water mark of the process's own memory (VmHWM in
 * /proc/self/status), not `process.resourceUsage().maxRSS`: Linux carries maxRSS across exec, so
 * a command started from a large process reports its parent's size as its own peak (measured: a
 * Node child of 43 MiB reported 404 MiB, its parent's 443). Where there is no /proc, maxRSS it is.
 */
import { readFileSync, writeFileSync } from 'node:fs';

export interface UsageReport {
  cpuSeconds: number;
  peakRssKiB: number;
}

function peakRssKiB(): number {
  try {
    const hwm = /^VmHWM:\s*(\d+) kB$/mu.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (hwm !== undefined) return Number(hwm);
  } catch {
    // not Linux: below
  }
  return process.resourceUsage().maxRSS;
}

process.on('exit', () => {
  const usage = process.resourceUsage();
  const report: UsageReport = { cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6, peakRssKiB: peakRssKiB() };
  const file = process.env.PDFPIPE_USAGE_FILE;
  if (file) writeFileSync(file, JSON.stringify(report));
  else process.stderr.write(`peak-rss ${report.peakRssKiB}\n`);
});
