/**
 * The command's one V8 setting, made before any other module is evaluated: how much a function
 * runs before V8's optimising compiler takes it up (`--interrupt-budget`, in bytes of bytecode
 * executed; V8's default is 132 KiB).
 *
 * Why: the chain's records come in many shapes (an item with or without a mark, a tag, a
 * direction), so its large functions are optimised for the shapes seen first, thrown out when the
 * next document brings another (V8's "wrong map" deoptimisation) and compiled again; a function
 * such as the PDFium character loop was compiled nine times over two documents. That compiling
 * runs on V8's background threads and cost 40% of the CPU of `extract --jobs 1` over the long
 * documents of bench:speed. Waiting longer before optimising lets the shapes be seen first:
 * measured there, a budget of 1 MB takes the CPU from 24.9 to 20.3 s (500 KB: 21.3 s, 2 MB:
 * 20.5 s, 4 MB: 21.0 s), with the same output. The setting is the process's, so the library
 * (`extract()`) leaves it to its caller.
 */
import { setFlagsFromString } from 'node:v8';

/** Bytes of bytecode a function executes before V8 considers optimising it. */
export const INTERRUPT_BUDGET = 1_000_000;

setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
