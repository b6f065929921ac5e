/**
 * A tagged PDF's structure tree, read for the `tag` of each glyph run: the structure type (after
 * the document's /RoleMap, which both engines apply) of the element that says what the run is.
 *
 * A tagged PDF wraps the glyphs of each structure element in a marked-content sequence with an
 * MCID, and its /StructTreeRoot ties each element (P, H2, Caption, TD, LI, Note, …) to the MCIDs
 * of its page. The element right around the glyphs is often a wrapper that says nothing
 * (Chromium puts a NonStruct inside every H1 and P; Word a P inside every TD; LibreOffice an LBody
 * inside every LI), so the tag is chosen down the path from the root:
 *
 *     Document > Table > TR > TD > P > Span     → TD   (the innermost element that decides a role)
 *     Document > L > LI > LBody > P            → LI
 *     Document > Sect > P > Link               → P    (no deciding element: the innermost with a meaning)
 *     Document > Div > NonStruct               → NonStruct (only wrappers: the innermost)
 *
 * Glyphs drawn as an /Artifact (page furniture, decoration) are outside the tree; their tag is
 * `Artifact`. Glyphs in no marked content that the tree knows have no tag.
 *
 * Only documents whose catalog says `/MarkInfo << /Marked true >>` are read, so an untagged PDF
 * costs one look at its catalog and its records stay as they were.
 */

/** Types that group or style content and say nothing of what it is. */
const GENERIC: ReadonlySet<string> = new Set([
  'Document', 'DocumentFragment', 'Part', 'Art', 'Sect', 'Div', 'NonStruct', 'Private', 'Span',
  'Quote', 'Reference', 'Code', 'Link', 'Annot', 'Ruby', 'RB', 'RT', 'RP', 'Warichu', 'WT', 'WP',
  'Em', 'Strong', 'Sub', 'Form',
]);

/** Types that decide a block's role whatever they hold (a P inside a TD is a table cell). */
const DECIDING = /^(?:H[1-6]?|Title|Caption|TH|TD|LI|Note|FENote|Aside|BibEntry|Formula|TOCI|Figure|Artifact)$/u;

/** The tag of content under an element of type `type`, given the tag chosen above it (see the diagram above). */
export function tagBelow(above: string | undefined, type: string): string {
  if (above === undefined) return type;
  if (DECIDING.test(above)) return DECIDING.test(type) ? type : above;
  if (DECIDING.test(type)) return type;
  if (GENERIC.has(type)) return GENERIC.has(above) ? type : above;
  return type;
}

/** A node of pdf.js's `page.getStructTree()`: an element with its role (after /RoleMap) or a marked-content leaf. */
export interface PdfjsStructNode {
  role?: string;
  type?: string;
  id?: string;
  children?: PdfjsStructNode[];
}

/** Marked-content ids (`p12R_mc3`, as pdf.js's text content names them) → tag, from pdf.js's tree of a page. */
export function pdfjsTags(root: PdfjsStructNode | null | undefined): Map<string, string> {
  const tags = new Map<string, string>();
  const walk = (node: PdfjsStructNode, above: string | undefined, depth: number): void => {
    // Trees can nest absurdly deep in hostile files.
    if (depth > 64) return;
    if (node.type === 'content' && typeof node.id === 'string') {
      if (above !== undefined) tags.set(node.id, above);
      return;
    }
    const tag = typeof node.role === 'string' && node.role !== '' && node.role !== 'Root' ? tagBelow(above, node.role) : above;
    for (const child of node.children ?? []) walk(child, tag, depth + 1);
  };
  if (root) walk(root, undefined, 0);
  return tags;
}
