/**
 * The stages after parse, from items to language-tagged blocks, as the parse workers build them.
 * Apart from `extract` (lib/run/extract.ts) so that a worker loads these stages alone, not the
 * main thread's parts of a run (inputs, the worker pool, accounting, the writers).
 */
import type { Transform } from 'node:stream';
import * as orderStage from '../../stages/order.js';
import * as linesStage from '../../stages/lines.js';
import * as bidiStage from '../../stages/bidi.js';
import * as repairStage from '../../stages/repair.js';
import * as resegmentStage from '../../stages/resegment.js';
import * as paragraphsStage from '../../stages/paragraphs.js';
import * as joinStage from '../../stages/join.js';
import * as rolesStage from '../../stages/roles.js';
import * as langidStage from '../../stages/langid.js';
import { renderDocuments } from './render.js';
import type { RenderOptions } from './worker-task.js';

/** The options of the stages after parse. */
export type ChainOptions = orderStage.OrderOptions &
  linesStage.LinesOptions &
  bidiStage.BidiOptions &
  repairStage.RepairOptions &
  resegmentStage.ResegmentOptions &
  paragraphsStage.ParagraphsOptions &
  joinStage.JoinOptions &
  rolesStage.RolesOptions &
  langidStage.LangidOptions;

/** The stages after parse, from items to language-tagged blocks; with `render`, then each document written out (lib/run/render.ts). */
export function workerChain(options: Partial<ChainOptions> = {}, render?: RenderOptions): Transform[] {
  return [
    orderStage.order(options),
    linesStage.lines(options),
    bidiStage.bidi(options),
    repairStage.repair(options),
    resegmentStage.resegment(options),
    paragraphsStage.paragraphs(options),
    joinStage.join(options),
    rolesStage.roles(options),
    langidStage.langid(options),
    ...(render ? [renderDocuments(render)] : []),
  ];
}
