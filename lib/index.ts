/** The library: the whole chain as an async iterator, and each stage's typed factory. */
import { order } from '../stages/order.js';
import { lines } from '../stages/lines.js';
import { bidi } from '../stages/bidi.js';
import { paragraphs } from '../stages/paragraphs.js';
import { parse } from '../stages/parse.js';
import { serialize } from '../stages/serialize.js';
import { join } from '../stages/join.js';
import { roles } from '../stages/roles.js';
import { langid } from '../stages/langid.js';
import { repair } from '../stages/repair.js';
import { resegment } from '../stages/resegment.js';

export { extract, analysisChain, fullChain, DEFAULTS, type ExtractOptions, type ExtractedDocument } from './run/extract.js';
/** Joins stages into one Duplex for `stream.pipeline`. */
export { compose } from './run/compose.js';
/** The output formats and one document written in any of them. */
export { FORMATS, documentOutput, type Format } from './formats/output.js';
/** A bad option (an unknown format, a value out of range): what every stage factory throws. */
export { UsageError } from './protocol/options.js';
export { parseNdjson, stringifyNdjson } from './protocol/ndjson.js';
export * from './protocol/records.js';
export { joinMargin, type JoinModel, type SequenceScorer } from './lm/join-model.js';
export { ArpaModel } from './lm/arpa.js';
export { openModel } from './lm/open.js';
export { type LanguageModel } from './lm/model.js';
export { parseJoinRules, loadJoinRules, type JoinRules } from './paragraphs/join-rules.js';
export { documentHtml } from './formats/html.js';
/** Parallel text: the aligned pairs of a document `langid` marked, and their TSV. */
export { documentPairs, documentPairsTsv, type TextPair } from './formats/pairs.js';
export { sentences } from './lang/sentences.js';

/** Stage factories, in the order of the chain: each returns an object-mode Transform over records. */
export const stages = { parse, order, lines, bidi, repair, resegment, paragraphs, join, roles, langid, serialize };
/** A document's logical structure (metadata, sections, paragraphs, keywords), and its XML. */
export { documentStructure, type Structure, type Section, type Paragraph } from './formats/structure.js';
export { structureXml } from './formats/xml.js';
