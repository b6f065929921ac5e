/**
 * Garbage collection between documents. A document's records live until the document is written,
 * long enough for V8 to move them to its old generation, where they stay after they die until the
 * heap reaches a limit that V8 sets from the machine's memory (gigabytes) or from `--memory`
 * (2 GiB a worker). Over a run of long documents the main thread and each worker so held
 * hundreds of MiB of dead records (extract --jobs 1 over nine PDFs of 100+ pages: 600–750 MiB
 * resident, under 100 MiB of it alive). Collecting between documents, once the heap has grown by
 * COLLECT_AFTER_MIB since the last collection, keeps each heap near what one document needs; a
 * full collection of such a heap takes about 10 ms, against the hundreds of ms it takes a
 * document to make that much garbage, and a run of small documents collects only every few dozen.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Growth of a thread's heap (MiB) since its last collection that makes the next document boundary collect. */
export const COLLECT_AFTER_MIB = 64;

let collect: (() => void) | null = null;
let afterLast = 0;

/**
 * Collects this thread's garbage when its heap has grown by COLLECT_AFTER_MIB since the last
 * time; call it between documents, when the last document's records are dead. Node gives a
 * thread V8's collector only with `--expose-gc`, which a user running `pdfpipe` does not pass: the
 * flag is set here and the function taken from a fresh context (the way Node's own documentation
 * sets V8 flags at run time).
 */
export function collectBetweenDocuments(): void {
  const used = getHeapStatistics().used_heap_size;
  if (used - afterLast < COLLECT_AFTER_MIB * 1024 * 1024) return;
  if (collect === null) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
  afterLast = getHeapStatistics().used_heap_size;
}
