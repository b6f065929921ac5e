/**
 * Traceable text edits for the repair stage: a line's text is rewritten by named rules, and every
 * change is counted per rule, optionally recorded as before/after, and the line's inferred marks
 * (spaces and breaks the analysis inserted) are moved with the text they belong to.
 */
import type { InferredMark } from '../protocol/records.js';

/** One change a rule made, for `--explain`. */
export interface Change {
  rule: string;
  before: string;
  after: string;
  /** The edited text around the change, after the edit. */
  context: string;
}

/** Collects counts and changes over a document. */
export class Tally {
  readonly counts = new Map<string, number>();
  readonly changes: Change[] = [];
  constructor(readonly explain: boolean) {}
  add(change: Change): void {
    this.counts.set(change.rule, (this.counts.get(change.rule) ?? 0) + 1);
    if (this.explain) this.changes.push(change);
  }
  get total(): number {
    let n = 0;
    for (const v of this.counts.values()) n += v;
    return n;
  }
}

/** A line's text under repair, with its inferred marks. */
export class Rewriter {
  constructor(
    public text: string,
    public marks: InferredMark[],
    private readonly tally: Tally,
  ) {}

  /**
   * Replaces every match of `pattern` (a global regex) by what `replacer` returns; a replacer that
   * returns the match itself (or null) leaves it alone and counts nothing.
   */
  replace(pattern: RegExp, replacer: (match: RegExpExecArray) => string | null, rule: string): void {
    const edits: { start: number; end: number; text: string }[] = [];
    pattern.lastIndex = 0;
    for (let m = pattern.exec(this.text); m !== null; m = pattern.exec(this.text)) {
      if (m[0] === '') {
        pattern.lastIndex += 1;
        continue;
      }
      const out = replacer(m);
      if (out !== null && out !== m[0]) edits.push({ start: m.index, end: m.index + m[0].length, text: out });
    }
    this.apply(edits, rule);
  }

  /** Applies non-overlapping edits (sorted by start) made by one rule. */
  apply(edits: readonly { start: number; end: number; text: string }[], rule: string): void {
    if (edits.length === 0) return;
    const before = this.text;
    let text = '';
    let last = 0;
    const moved: InferredMark[] = [];
    let markIndex = 0;
    const marks = [...this.marks].sort((a, b) => a.at - b.at);
    const shiftMarksBefore = (limit: number): void => {
      while (markIndex < marks.length && marks[markIndex]!.at < limit) {
        const mark = marks[markIndex++]!;
        moved.push({ ...mark, at: mark.at - last + text.length });
      }
    };
    for (const edit of edits) {
      if (edit.start < last) continue;
      shiftMarksBefore(edit.start);
      text += before.slice(last, edit.start);
      const newStart = text.length;
      // Marks inside the replaced span keep their place when the replacement still has a
      // character of the same kind there (a space stays a space); otherwise they go with it.
      while (markIndex < marks.length && marks[markIndex]!.at < edit.end) {
        const mark = marks[markIndex++]!;
        const at = newStart + Math.min(mark.at - edit.start, edit.text.length - 1);
        const ch = edit.text[at - newStart];
        if (ch !== undefined && (mark.kind !== 'space' || /\s/u.test(ch))) moved.push({ ...mark, at });
      }
      text += edit.text;
      last = edit.end;
      this.tally.add({
        rule,
        before: before.slice(edit.start, edit.end),
        after: edit.text,
        context: before.slice(Math.max(0, edit.start - 12), edit.start) + edit.text + before.slice(edit.end, edit.end + 12),
      });
    }
    shiftMarksBefore(Infinity);
    text += before.slice(last);
    this.text = text;
    this.marks = moved;
  }
}
