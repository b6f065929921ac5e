/**
 * The command's V8 settings, made before any other module is evaluated and before any worker
 * starts (V8's flags are the process's: the workers' heaps take them as they are created). The
 * library (`extract()`) leaves them to its caller.
 *
 * `--interrupt-budget`: how much a function runs before V8's optimising compiler takes it up (in
 * bytes of bytecode executed; V8's default is 132 KiB). The chain's records come in many shapes
 * (an item with or without a mark, a tag, a direction), so its large functions are optimised for
 * the shapes seen first, thrown out when the next document brings another (V8's "wrong map"
 * deoptimisation) and compiled again; a function such as the PDFium character loop was compiled
 * nine times over two documents. That compiling runs on V8's background threads and cost 40% of
 * the CPU of `extract --jobs 1` over the long documents of bench:speed. Waiting longer before
 * optimising lets the shapes be seen first: measured there, a budget of 1 MB takes the CPU from
 * 24.9 to 20.3 s (500 KB: 21.3 s, 2 MB: 20.5 s, 4 MB: 21.0 s), with the same output.
 *
 * `--heap-growing-percent`: how far V8 lets the old generation grow past what its last full
 * collection kept before it collects again. V8 picks a factor of up to 4 itself when collecting is
 * cheap next to allocating, as it is for the stages, which hold a whole document at a time: a
 * worker's heap then reaches two to three times what is alive. Capped at 1.3, the peak RSS of
 * `extract --jobs 1` over bench:speed's long documents fell from 294–345 to 281–293 MiB (four
 * runs each), for about 0.35 s more time in full collections over 25 CPU s (`--trace-gc`), less
 * than the run-to-run noise of the total.
 */
import { setFlagsFromString } from 'node:v8';

/** Bytes of bytecode a function executes before V8 considers optimising it. */
export const INTERRUPT_BUDGET = 1_000_000;

/** Growth of the old generation (percent over what the last full collection kept) that starts the next one. */
export const HEAP_GROWING_PERCENT = 30;

setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
