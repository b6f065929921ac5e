/**
 * Failures of pdf.js that come out of promises nothing awaits, kept for the document being read
 * (lib/engines/pdfjs.ts) instead of ending the thread.
 */

/** pdf.js's own failures: its exception classes ("XRefEntryException", "FormatError", …). */
const PDFJS_FAILURE = /^(?:[A-Za-z]+Exception|FormatError)$/u;

/**
 * pdf.js reads some parts of a document in promises that nothing awaits; with a damaged
 * cross-reference table one of them can fail while the pages are read ("Bad (uncompressed) XRef
 * entry"), and unhandled, that failure ends the thread and the document with it. While a document
 * is read, failures of pdf.js's own are kept instead, to be reported as the document's warning;
 * any other unhandled rejection is thrown on, a crash as before.
 */
export function keepStrayFailures(): { failures: Set<string>; release(): void } {
  const failures = new Set<string>();
  const listener = (reason: unknown): void => {
    const name = (reason as { name?: unknown } | null)?.name;
    if (reason instanceof Error && typeof name === 'string' && PDFJS_FAILURE.test(name)) failures.add(`${name}: ${reason.message}`);
    else throw reason;
  };
  process.on('unhandledRejection', listener);
  return { failures, release: () => process.off('unhandledRejection', listener) };
}
