/**
 * Thin adapters that turn a stage's pure core into an object-mode Transform.
 *
 * A core sees one document (or one page) at a time and returns the records to emit; the adapter
 * handles grouping, pass-through of records it does not own, and failures: a core that throws ends
 * that document with an `error` record and the stream goes on with the next one.
 */
import { Transform, type TransformCallback } from 'node:stream';
import {
  errorRecord,
  type DiagnosticRecord,
  type DocRecord,
  type Outcome,
  type PageRecord,
  type PipeRecord,
} from './records.js';

/**
 * A stage's options: its defaults, replaced by the values `partial` has of its own keys, as
 * `{ ...defaults, ...partial }` gives them but without the keys of other stages. The chain hands
 * every stage the options of all of them (some 80 keys); spreading an object that large, which V8
 * keeps as a dictionary, takes about 0.2 ms, and the stages that normalise their options for
 * every page or document did so with it.
 */
export function ownOptions<T extends object>(defaults: T, partial: Partial<T>): T {
  const options = { ...defaults };
  for (const key of Object.keys(defaults) as (keyof T)[]) {
    if (Object.prototype.hasOwnProperty.call(partial, key)) options[key] = partial[key] as T[keyof T];
  }
  return options;
}

/**
 * A stage's core, imported when the first stage that runs it is built rather than when the stage
 * file is. The stage files are also where the option tables are, and `extract` reads every
 * table on its main thread, which runs no stage after parse: importing the cores there (franc and
 * its trigram profiles, the ISO 639-3 table, the bidi and Thai tables) was about 200 ms of every
 * run's start. A stage calls `ready()` as it is built and hands the promise to its transform, which
 * waits for it before its first record; from then on `get()` returns the module at once.
 */
export class LazyModule<T> {
  private loading: Promise<T> | null = null;
  private loaded: T | null = null;

  constructor(private readonly load: () => Promise<T>) {}

  /** Starts the import (once) and resolves to the module. */
  ready(): Promise<T> {
    this.loading ??= this.load().then((module) => (this.loaded = module));
    return this.loading;
  }

  /** The module, once `ready()` has resolved. */
  get(): T {
    if (this.loaded === null) throw new Error('a stage core was used before it was loaded');
    return this.loaded;
  }
}

type TransformFunction = (this: Transform, record: PipeRecord, encoding: BufferEncoding, done: TransformCallback) => void;

/**
 * A transform function that waits for `ready` (a core being imported) before its first record; a
 * Transform takes the next record only when the last is done, so later records run at once.
 */
export function afterReady(ready: Promise<unknown> | undefined, transform: TransformFunction): TransformFunction {
  let waiting = ready;
  return function (record, encoding, done) {
    if (waiting === undefined) return transform.call(this, record, encoding, done);
    waiting.then(
      () => {
        waiting = undefined;
        transform.call(this, record, encoding, done);
      },
      (error: unknown) => done(error as Error),
    );
  };
}

/** One document's records, gathered for a core that needs the whole document at once. */
export interface DocumentGroup {
  doc: DocRecord;
  pages: PageRecord[];
  diagnostics: DiagnosticRecord[];
  outcome: Outcome;
}

/** A core over a whole document: returns the new pages and any diagnostics to add. */
export type DocumentCore = (group: DocumentGroup) => { pages: PageRecord[]; diagnostics?: DiagnosticRecord[]; doc?: DocRecord };

/** A core over one page. */
export type PageCore = (page: PageRecord, doc: DocRecord) => { page: PageRecord; diagnostics?: DiagnosticRecord[] };

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A document's records as `documentTransform` gathers them, before its outcome. */
type Gathered = Omit<DocumentGroup, 'outcome'>;

/** Writes a core's result: its header (a core may rewrite it), the document's diagnostics, the pages, the core's diagnostics, the outcome. */
function pushResult(stream: Transform, current: Gathered, result: ReturnType<DocumentCore>, outcome: Outcome): void {
  stream.push(result.doc ?? current.doc);
  for (const d of current.diagnostics) stream.push(d);
  for (const page of result.pages) stream.push(page);
  for (const d of result.diagnostics ?? []) stream.push(d);
  stream.push(outcome);
}

function pushFailure(stream: Transform, stage: string, current: Gathered, error: unknown): void {
  stream.push(current.doc);
  stream.push(errorRecord(current.doc.id, stage, 'stage-failed', `${stage} failed: ${describe(error)}`));
}

/**
 * Gathers each document's records until its outcome and hands them to `finish`, which must call
 * `done` once it has written the document; a document that already failed passes through as it
 * came, and records of no open document pass straight through.
 */
function gatheringTransform(
  finish: (stream: Transform, current: Gathered, outcome: Outcome, done: TransformCallback) => void,
  flush?: (done: TransformCallback) => void,
  ready?: Promise<unknown>,
): Transform {
  let group: Gathered | null = null;
  return new Transform({
    objectMode: true,
    transform: afterReady(ready, function (record, _enc, done) {
      if (record.type === 'doc') {
        group = { doc: record, pages: [], diagnostics: [] };
      } else if (group !== null && record.type === 'page' && record.doc === group.doc.id) {
        group.pages.push(record);
      } else if (group !== null && record.type === 'diagnostic' && record.doc === group.doc.id) {
        group.diagnostics.push(record);
      } else if (group !== null && (record.type === 'end' || record.type === 'error') && record.doc === group.doc.id) {
        const current = group;
        group = null;
        if (record.type === 'error') {
          for (const r of [current.doc, ...current.pages, ...current.diagnostics, record]) this.push(r);
          return done();
        }
        return finish(this, current, record, done);
      } else {
        this.push(record);
      }
      done();
    }),
    ...(flush ? { flush } : {}),
  });
}

/**
 * Buffers each document until its outcome, then runs the core over it. Memory is bounded by one
 * document's records, which the stages that need cross-page context (furniture, paragraph runs)
 * accept; page-local stages use `pageTransform`.
 */
export function documentTransform(stage: string, core: DocumentCore, ready?: Promise<unknown>): Transform {
  return gatheringTransform(
    (stream, current, outcome, done) => {
      try {
        pushResult(stream, current, core({ ...current, outcome }), outcome);
      } catch (error) {
        pushFailure(stream, stage, current, error);
      }
      done();
    },
    undefined,
    ready,
  );
}

/** Runs the core on each page as it arrives; memory is bounded by one page. */
export function pageTransform(stage: string, core: PageCore, ready?: Promise<unknown>): Transform {
  let doc: DocRecord | null = null;
  let failed = false;
  return new Transform({
    objectMode: true,
    transform: afterReady(ready, function (record, _enc, done) {
      if (record.type === 'doc') {
        doc = record;
        failed = false;
        this.push(record);
      } else if (doc !== null && 'doc' in record && record.doc === doc.id && failed) {
        // The document already has its error record; what is left of it is dropped.
        if (record.type === 'end' || record.type === 'error') doc = null;
      } else if (doc !== null && record.type === 'page' && record.doc === doc.id) {
        try {
          const result = core(record, doc);
          this.push(result.page);
          for (const d of result.diagnostics ?? []) this.push(d);
        } catch (error) {
          failed = true;
          this.push(errorRecord(doc.id, stage, 'stage-failed', `${stage} failed: ${describe(error)}`, { page: record.page }));
        }
      } else {
        if (doc !== null && (record.type === 'end' || record.type === 'error') && record.doc === doc.id) doc = null;
        this.push(record);
      }
      done();
    }),
  });
}

/** A core over a whole document that answers later (it waits on a model in another process). */
export type AsyncDocumentCore = (group: DocumentGroup) => Promise<ReturnType<DocumentCore>>;

/**
 * `documentTransform` for a core that returns a promise: a document is finished before the next
 * record is taken, so documents stay in order. A core that rejects ends that document with an
 * `error` record, as one that throws does. `close` runs when the stream ends (to end a child
 * process the core talks to).
 */
export function asyncDocumentTransform(stage: string, core: AsyncDocumentCore, close?: () => Promise<void>, ready?: Promise<unknown>): Transform {
  return gatheringTransform(
    (stream, current, outcome, done) => {
      let pending: Promise<ReturnType<DocumentCore>>;
      try {
        pending = core({ ...current, outcome });
      } catch (error) {
        pending = Promise.reject(error);
      }
      pending.then(
        (result) => {
          pushResult(stream, current, result, outcome);
          done();
        },
        (error: unknown) => {
          pushFailure(stream, stage, current, error);
          done();
        },
      );
    },
    (done) => {
      if (close) close().then(() => done(), () => done());
      else done();
    },
    ready,
  );
}
