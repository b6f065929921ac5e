"""Merges the shards of a pdfpipe Snakemake run (workflows/Snakefile) into one folder.

    python3 merge.py OUT SHARD_DIR...

Each SHARD_DIR holds what one `pdfpipe extract --out-dir out --resume state --errors
errors.ndjson --report report.json` run wrote. OUT gets:

- documents/: every shard's document files (hard links where the file system allows);
- outcomes.tsv: `id TAB code` per document, `end` or its error code, sorted by id;
- errors.ndjson: the error record of each document that failed, as pdfpipe wrote it;
- report.json: documents, outcomes by code, failed, and the shards' own reports.

The outcomes come from the resume states, which list every document written with its code (a
shard that was killed and resumed ran in two parts, and its last report counts only the second);
a document done again on resume counts once, with its last outcome. Two shards with the same
document id would overwrite each other's files: that stops the merge with the ids.
"""
import json
import os
import shutil
import sys
from collections import Counter


def final_outcomes(state):
    """A shard's documents and their outcome codes, from its resume state (JSON lines: the
    options, then {id, end, code} per document written; the last line of an id counts)."""
    outcomes = {}
    with open(state, encoding="utf-8") as f:
        for line in f:
            try:
                entry = json.loads(line)
            except ValueError:
                continue  # a line cut by a kill
            if isinstance(entry, dict) and "id" in entry:
                outcomes[entry["id"]] = entry.get("code", "end")
    return outcomes


def last_errors(path, final):
    """The last error line of each document whose final outcome is an error (a document that
    failed, was done again on resume and ended well has none)."""
    errors = {}
    if not os.path.exists(path):
        return errors
    with open(path, encoding="utf-8") as f:
        for line in filter(str.strip, f):
            try:
                doc = json.loads(line)["doc"]
            except (ValueError, KeyError, TypeError):
                continue  # a line cut by a kill
            if final.get(doc, "end") != "end":
                errors[doc] = line if line.endswith("\n") else line + "\n"
    return errors


def link_documents(source_dir, target_dir):
    """Links (or copies) the document files of one shard into the merged folder."""
    for root, _, names in os.walk(source_dir):
        for name in names:
            if name.startswith(".pdfpipe-") and name.endswith(".partial"):
                continue  # a file a killed run was writing
            source = os.path.join(root, name)
            target = os.path.join(target_dir, os.path.relpath(source, source_dir))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            try:
                os.link(source, target)
            except OSError:  # another file system
                shutil.copyfile(source, target)


def merge(out, shard_dirs):
    outcomes, errors, runs = {}, {}, []
    # Built beside the old folder and put in its place at the end: no file of an earlier merge
    # stays, and a merge that stops leaves the earlier result whole.
    documents = os.path.join(out, "documents")
    building = documents + ".merging"
    shutil.rmtree(building, ignore_errors=True)
    os.makedirs(building)
    for shard in shard_dirs:
        final = final_outcomes(os.path.join(shard, "state"))
        clash = final.keys() & outcomes.keys()
        if clash:
            sys.exit(f"merge: document ids in two shards, whose files would overwrite each other: {sorted(clash)[:5]}")
        outcomes.update(final)
        errors.update(last_errors(os.path.join(shard, "errors.ndjson"), final))
        link_documents(os.path.join(shard, "out"), building)
        with open(os.path.join(shard, "report.json"), encoding="utf-8") as f:
            runs.append(json.load(f))
    shutil.rmtree(documents, ignore_errors=True)
    os.rename(building, documents)
    with open(os.path.join(out, "outcomes.tsv"), "w", encoding="utf-8") as f:
        f.writelines(f"{doc}\t{code}\n" for doc, code in sorted(outcomes.items()))
    with open(os.path.join(out, "errors.ndjson"), "w", encoding="utf-8") as f:
        f.writelines(errors[doc] for doc in sorted(errors))
    counts = Counter(outcomes.values())
    report = {
        "documents": len(outcomes),
        "outcomes": dict(sorted(counts.items())),
        "failed": len(outcomes) - counts["end"],
        "shards": runs,
    }
    with open(os.path.join(out, "report.json"), "w", encoding="utf-8") as f:
        json.dump(report, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: python3 merge.py OUT SHARD_DIR...")
    merge(sys.argv[1], sys.argv[2:])
