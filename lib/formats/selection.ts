/**
 * Which blocks the text, HTML and base64 outputs write, chosen by role, and how the chosen blocks
 * group into runs (a paragraph and the blocks that continue it across a page, column or
 * interrupting block).
 *
 * The rule: without `roles` or `bodyOnly`, every role but the furniture (header, footer,
 * page-number) is written, as before roles could be chosen. `roles` (a comma-separated list of
 * roles and named sets) or `bodyOnly` (the `body-only` set) replaces that default with what they
 * name, together. `keepFurniture` adds the furniture roles to either.
 *
 * A run-on (`continues`) joins the last paragraph that can be continued (a body or list-item
 * paragraph that is not small print, joinRule `note`, or a display formula; a title's second
 * part joins its first), past blocks left out
 * or kept between the halves; when that paragraph itself is left out, or a display formula is left
 * out after it, the continuing block starts a paragraph of its own. Each block is chosen by its
 * own role.
 */
import { UsageError } from '../protocol/options.js';
import { FURNITURE_ROLES, ROLES, type Block, type PageRecord, type Role } from '../protocol/records.js';
import { NUMBERING } from '../regions/headings.js';

/** The options the selection reads (the text and HTML writers' options extend them). */
export interface RoleOptions {
  /** Comma-separated roles and named sets to write; '' (or absent) for the default. */
  roles?: string;
  /** Write the `body-only` set (with any `roles`). */
  bodyOnly?: boolean;
  /** Also write running headers, footers and page numbers. */
  keepFurniture: boolean;
}

/**
 * Named sets of roles. `body-only` is the running text a reader reads, as the ground truth of the
 * Bast & Korzen benchmark has it (its headings are written without their numbering, see
 * `unnumbered`); `all` is every role.
 */
export const ROLE_SETS: Readonly<Record<string, readonly Role[]>> = {
  'body-only': ['title', 'heading', 'body', 'list-item'],
  all: ROLES,
};

/** The roles a `--roles` value names: roles and named sets, comma-separated; an unknown name is a UsageError listing the valid ones. */
export function parseRoles(value: string): Set<Role> {
  const names = value.split(',').map((name) => name.trim()).filter((name) => name !== '');
  const roles = new Set<Role>();
  const unknown: string[] = [];
  for (const name of names) {
    const set = Object.prototype.hasOwnProperty.call(ROLE_SETS, name) ? ROLE_SETS[name] : undefined;
    if (set) for (const role of set) roles.add(role);
    else if ((ROLES as readonly string[]).includes(name)) roles.add(name as Role);
    else unknown.push(name);
  }
  if (unknown.length > 0 || names.length === 0) {
    const what = unknown.length > 0 ? `Unknown role${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}` : 'No role given';
    throw new UsageError(`${what} in --roles; roles: ${ROLES.join(', ')}; sets: ${Object.keys(ROLE_SETS).join(', ')}`);
  }
  return roles;
}

/**
 * Whether the options select a role, by the rule above. The default keeps every role but the
 * furniture, so a block of a role outside `ROLES` is written as it was before roles were chosen.
 */
export function roleFilter(options: RoleOptions): (role: string) => boolean {
  const furniture = (role: string): boolean => FURNITURE_ROLES.has(role as Role);
  if (!options.roles && !options.bodyOnly) return (role) => options.keepFurniture || !furniture(role);
  const roles = new Set<string>(options.roles ? parseRoles(options.roles) : []);
  if (options.bodyOnly) for (const role of ROLE_SETS['body-only']!) roles.add(role);
  return (role) => roles.has(role) || (options.keepFurniture && furniture(role));
}

/** Whether the selection is the `body-only` set (by `bodyOnly` or by name in `roles`). */
function selectsBodyOnly(options: RoleOptions): boolean {
  return options.bodyOnly === true || (options.roles ?? '').split(',').some((name) => name.trim() === 'body-only');
}

/**
 * A heading as the body-only text has it: without its section numbering ("2.3 Results" →
 * "Results", "IV. DISCUSSION" → "DISCUSSION"). The numbers are labels of the document's
 * structure, not running text; the NDJSON and XML keep them, as do the other selections.
 */
export function unnumbered(block: Block): Block {
  const text = block.text.replace(NUMBERING, '');
  return text === block.text || text.trim() === '' ? block : { ...block, text };
}

/** Blocks left out that do not stand between a paragraph and a formula after it: furniture, notes,
 * marks, and math the layout took for a table (a matrix); a caption does. */
const PASSED_OVER: ReadonlySet<string> = new Set([...FURNITURE_ROLES, 'footnote', 'margin-note', 'other', 'table']);

/** A block with the number of the page it is on. */
export interface PlacedBlock {
  block: Block;
  page: number;
}

/**
 * Whether a block opens a paragraph that a later block can continue: body, list item or a display
 * formula set in the paragraph (the text after it goes on where it stands), not small print.
 */
function continuable(block: Block): boolean {
  return (block.role === 'body' || block.role === 'list-item' || block.role === 'formula' || block.role === 'title') && block.joinRule !== 'note';
}

/** Whether a block runs on the open run: a title only continues a title, and only a title does. */
function runsOnto(open: readonly PlacedBlock[], block: Block): boolean {
  return (open[0]!.block.role === 'title') === (block.role === 'title');
}

/**
 * The selected, non-empty blocks of a document in reading order, grouped in runs: each run is a
 * paragraph followed by the blocks that continue it (pure). A footnote is always a run of its own.
 */
export function blockRuns(pages: readonly PageRecord[], options: RoleOptions): PlacedBlock[][] {
  const selected = roleFilter(options);
  const bodyOnly = selectsBodyOnly(options);
  const runs: PlacedBlock[][] = [];
  let open: PlacedBlock[] | undefined;
  // Whether the block before (furniture aside) was written into the open paragraph.
  let afterOpen = false;
  for (const page of pages) {
    for (const found of page.blocks ?? []) {
      if (found.text.trim() === '') continue;
      const block = bodyOnly && found.role === 'heading' ? unnumbered(found) : found;
      const runsOn = block.continues && block.role !== 'footnote';
      if (!selected(block.role)) {
        // A paragraph left out closes the one before it: what continues it is not joined there.
        // So does a display formula left out right after it: the text after the formula is read
        // as a paragraph of its own, as one reads the page (and as the Bast & Korzen truth has
        // it). Math inside a float, after its caption (a table's cells), closes nothing.
        if ((!(runsOn && open) && continuable(block)) || (block.role === 'formula' && afterOpen)) open = undefined;
        if (!PASSED_OVER.has(block.role)) afterOpen = false;
        continue;
      }
      if (runsOn && open && runsOnto(open, block)) {
        open.push({ block, page: page.page });
      } else {
        runs.push([{ block, page: page.page }]);
        if (continuable(block)) open = runs[runs.length - 1];
      }
      afterOpen = open !== undefined && open[open.length - 1]!.block === block;
    }
  }
  return runs;
}
