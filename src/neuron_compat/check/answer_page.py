"""The check page's answer as a page: `check --json`'s document (and `explain --json`'s) turned into blocks the page
draws: headings, tables, lists, code to copy. Standard library only (it runs in the browser, check/page.py).

The page's script draws blocks and nothing else (site/assets/javascripts/check.js): it decides no content, makes
text with textContent only, and links only to https addresses or to the site's own pages. So what a visitor reads
is decided here, next to the answer, and tested without a browser.

Blocks: {"kind": "heading", "text", "id"}, {"kind": "paragraph", "parts"}, {"kind": "table", "name", "headers",
"rows"} (a row is a list of cells, a cell a list of parts or {"list": items}), {"kind": "list", "name", "items"}
(an item is a list of parts), {"kind": "code", "name", "lines"}. A part is {"text"}, {"badge": status},
{"link": text, "href": an https address} or {"link": text, "page": a site path such as 'families/llama/'}.
"""

from __future__ import annotations

from typing import Any

from neuron_compat.contract.hub_ids import checkpoint_page_folder
from neuron_compat.safeio.safe_text import one_line

Part = dict[str, str]
Block = dict[str, Any]


def text(value: object) -> Part:
    """Text as the page shows it: a control, bidirectional or invisible character (a pasted config's model_type may
    hold one) is written as an escape, never applied."""
    return {"text": "" if value is None else one_line(str(value))}


def page_link(label: object, path: str) -> Part:
    return {"link": one_line(str(label)), "page": path}


def source_link(url: object, label: object = None) -> Part:
    """An outside link when it is https (registry text is data), else its text."""
    shown = one_line(str(label if label else url))
    return {"link": shown, "href": str(url)} if str(url).startswith("https://") else text(shown)


def family_path(family_id: str, anchor: str | None = None) -> str:
    return f"families/{family_id}/" + (f"#{anchor}" if anchor else "")


def linked_families(family_ids: list[str]) -> list[Part]:
    """Family ids as links to their pages, separated by commas."""
    found: list[Part] = []
    for family_id in family_ids:
        found += [text(", ")] if found else []
        found.append(page_link(family_id, family_path(family_id)))
    return found


def heading(title: str, anchor: str) -> Block:
    return {"kind": "heading", "text": title, "id": anchor}


def paragraph(*parts: Part) -> Block:
    return {"kind": "paragraph", "parts": list(parts)}


def bullets(name: str, items: list[list[Part]]) -> Block:
    return {"kind": "list", "name": name, "items": items}


def gib(value: object) -> str:
    return "" if not isinstance(value, (int, float)) else f"{value / 1024 ** 3:.2f} GiB"


def _stack_part(verdict: dict[str, Any], stack: str, name: str | None, anchor: str | None) -> Part:
    family = verdict.get("family")
    if not family or not anchor:
        return text(name or stack)
    return page_link(name or stack, family_path(family["id"], anchor))


def install_blocks(verdict: dict[str, Any]) -> list[Block]:
    """What to install: one row per workload and hardware (the first is the answer), the lines to copy, the notes."""
    recommendations = verdict.get("recommendations") or []
    if not recommendations:
        return []
    rows = [[[text(f"{r['workload']} on {r['hardware']}")], [{"badge": r["status"]}],
             [_stack_part(verdict, r["stack"], r.get("stack_name"), r.get("anchor"))], [text(r.get("stack_version"))],
             [text(r.get("release"))], [text(r.get("why"))]] for r in recommendations]
    lines: list[str] = []
    for r in recommendations:
        lines.append(f"# {r['workload']} on {r['hardware']}: {r.get('stack_name') or r['stack']} at Neuron {r['release']}")
        lines.extend(str(line) for line in r.get("install") or [])
        if not r.get("install"):
            missing = ", ".join(str(item) for item in r.get("not_recorded") or [])
            lines.append("# nothing recorded to install" + (f" ({missing})" if missing else ""))
    notes = list(dict.fromkeys(str(r["notes_url"]) for r in recommendations if r.get("notes_url")))
    blocks = [heading("What to install", "nc-answer-install"),
              {"kind": "table", "name": "install", "headers": ["For", "Answer", "Stack", "Version", "Neuron", "Why"],
               "rows": rows},
              {"kind": "code", "name": "install", "lines": lines}]
    if notes:
        blocks.append(bullets("notes", [[text("Release notes: "), source_link(url)] for url in notes]))
    return blocks


def stack_blocks(verdict: dict[str, Any]) -> list[Block]:
    """The answer of each stack and workload: its verdict, range, attention, dtypes, caveats and notes."""
    blocks: list[Block] = []
    answers = verdict.get("answers") or []
    if answers:
        rows = []
        for a in answers:
            said = [[text(("limits: " if c.get("limits") else "") + str(c.get("message")))] for c in a.get("caveats") or []]
            said += [[text((f"{n['release']}: " if n.get("release") else "") + str(n.get("text")))]
                     for n in a.get("notes") or []]
            rows.append([[_stack_part(verdict, a["stack"], a.get("stack_name"), a.get("anchor"))], [text(a["workload"])],
                         [text(", ".join(a.get("hardware") or []))], [{"badge": a.get("display_status") or a["status"]}],
                         [text(a.get("since"))], [text(a.get("until"))], [text(", ".join(a.get("attention") or []))],
                         [text(", ".join(a.get("dtypes") or []))], {"list": said} if said else []])
        blocks += [heading("Answer per stack", "nc-answer-stacks"),
                   {"kind": "table", "name": "stacks", "headers": ["Stack", "Workload", "Hardware", "Verdict", "Since",
                                                                  "Until", "Attention", "Dtypes", "Caveats and notes"],
                    "rows": rows}]
    if verdict.get("no_statement"):
        blocks.append(paragraph(text("No statement for: " + ", ".join(verdict["no_statement"]))))
    if verdict.get("caveats"):
        blocks.append(bullets("caveats", [[text(c.get("message") if isinstance(c, dict) else c)]
                                          for c in verdict["caveats"]]))
    nearest = [str(n) for n in verdict.get("nearest") or [] if isinstance(n, str)]  # family ids
    if nearest:
        blocks.append(paragraph(text("The nearest families the registry covers: "), *linked_families(nearest)))
    return blocks


def fit_blocks(verdict: dict[str, Any]) -> list[Block]:
    """The fit, an estimate: what it assumes, then one row per instance."""
    fit = verdict.get("fit")
    if not isinstance(fit, dict):
        return []
    blocks = [heading("Fit (an estimate)", "nc-answer-fit")]
    if fit.get("estimate"):
        blocks.append(paragraph(text(fit["estimate"])))
    a = fit.get("assumptions") or {}
    facts: list[list[Part]] = []
    if fit.get("parameters"):
        facts.append([text(f"Parameters: {fit['parameters']:,}")])
    if a.get("batch"):
        facts.append([text(f"Batch {a['batch']} ({a.get('batch_from')}), sequence length {a.get('seq_len')} "
                           f"({a.get('seq_len_from')})")])
    if a.get("dtype"):
        facts.append([text(f"Weights at {a['dtype']} ({a.get('dtype_from')}), KV cache at {a.get('kv_cache_dtype')}")])
    if a.get("margin_text"):
        facts.append([text(f"Margin: {a['margin_text']}")])
    if fit.get("reason"):
        facts.append([text(fit["reason"])])
    if facts:
        blocks.append(bullets("assumptions", facts))
    instances = fit.get("instances") or []
    if instances and all(i.get("bytes_needed") is None for i in instances):
        why = [str(part["reason"]) for part in fit.get("parameter_parts") or [] if part.get("reason")]
        why += [str(fit["kv_cache_reason"])] if fit.get("kv_cache_reason") else []
        blocks.append(paragraph(text("Not estimated for any instance: " + "; ".join(dict.fromkeys(why))
                                     if why else "Not estimated for any instance.")))
    elif instances:
        rows = []
        for i in instances:
            degree = "" if i.get("degree") is None else f"{i['degree']}" + (
                f" ({i['degree_from']})" if i.get("degree_from") else "")
            fits = "" if i.get("fits") is None else ("yes" if i["fits"] else "no")
            cores = f"{i.get('neuron_cores')}" + (f" (LNC={i['lnc']})" if i.get("lnc") else "")
            rows.append([[text(i.get("name"))], [text(cores)], [text(i.get("stack"))], [text(degree)], [text(fits)],
                         [text(gib(i.get("bytes_needed")))], [text(gib(i.get("bytes_available")))],
                         [text(gib(i.get("headroom_bytes")))]])
        blocks.append({"kind": "table", "name": "fit", "headers": ["Instance", "NeuronCores", "Stack", "Degree", "Fits",
                                                                   "Needed", "Available", "Headroom"], "rows": rows})
    if fit.get("not_counted"):
        blocks.append(paragraph(text("Not counted: " + "; ".join(fit["not_counted"]) + ".")))
    return blocks


def configuration_item(c: dict[str, Any]) -> list[Part]:
    """One tested configuration on a line: what ran, where, what came of it and what was measured; its source."""
    parallelism = c.get("parallelism") or {}
    said = [str(c.get("checkpoint")), str(c.get("stack")),
            f"Neuron {c['release']}" if c.get("release") else "release not stated",
            str(c.get("instance") or "instance not stated")]
    if parallelism.get("tensor"):
        said.append(f"TP={parallelism['tensor']}")
    if c.get("dtype"):
        said.append(str(c["dtype"]))
    said.append(str(c.get("outcome")))
    measured = [f"{m.get('metric')}" + (f" [{m['name']}]" if m.get("name") else "") + " "
                + ("~" if m.get("approximate") else "") + f"{m.get('value')} {m.get('unit')}"
                + (f" ({m['phase']})" if m.get("phase") else "") for m in c.get("measurements") or []]
    line = " · ".join(said[1:]) + (": " + "; ".join(measured) if measured else "") + " — "
    source = c.get("source") or {}
    hub_id = c.get("hub_id")  # every Hub id a configuration of a known family names has its page on the site
    name = page_link(said[0], checkpoint_page_folder(hub_id) + "/") if isinstance(hub_id, str) and hub_id else text(said[0])
    return [name, text(" · " + line), source_link(source.get("url"), source.get("title")) if source else text("no source")]


def evidence_blocks(verdict: dict[str, Any]) -> list[Block]:
    """Tested configurations, known issues and the sources, each linked."""
    blocks: list[Block] = []
    tested = verdict.get("tested_configurations") or {}
    if tested.get("total"):
        said = [text(f"{tested['total']} recorded" + (f" for this {tested['matched_by']}" if tested.get("matched_by")
                                                       else "") + ". ")]
        if tested.get("checkpoint_page"):
            said.append(page_link("The checkpoint's page", str(tested["checkpoint_page"])))
        blocks += [heading("Tested configurations", "nc-answer-tested"), paragraph(*said),
                   bullets("configurations", [configuration_item(c) for c in tested.get("configurations") or []])]
        if tested.get("other_sizes_total"):
            blocks += [paragraph(text(f"Other sizes or hardware ({tested['other_sizes_total']}):")),
                       bullets("other-sizes", [configuration_item(c) for c in tested.get("other_sizes") or []])]
    issues = verdict.get("known_issues") or []
    if issues:
        items = []
        for issue in issues:
            where = [str(issue["component"])] if issue.get("component") else []
            listed = issue.get("listed_in") or {}
            if listed.get("first"):
                last = listed.get("last")
                where.append(f"in the notes of {listed['first']}" + (f"–{last}" if last and last != listed["first"]
                                                                      else ""))
            if issue.get("fixed_in"):
                where.append(f"fixed in {issue['fixed_in']}")
            items.append([known_issue_link(issue)] + ([text(f" ({'; '.join(where)})")] if where else []))
        blocks += [heading("Known issues", "nc-answer-issues"), bullets("known-issues", items)]
    sources = list(dict.fromkeys(str(url) for a in verdict.get("answers") or []
                                 for url in (a.get("sources") or []) + (a.get("capability_sources") or [])))
    family = verdict.get("family")
    if sources or family:
        blocks.append(heading("Evidence", "nc-answer-evidence"))
        if family:
            blocks.append(paragraph(text("Every statement, with its sources and history: "),
                                    page_link(f"the {family['name']} family page", family_path(family["id"]))))
        if sources:
            blocks.append(bullets("sources", [[source_link(url)] for url in sources]))
    return blocks


def known_issue_link(issue: dict[str, Any]) -> Part:
    return page_link(issue.get("title") or issue.get("id"), f"known-issues/#issue-{issue.get('id')}")


def headline(verdict: dict[str, Any]) -> str:
    """The answer's one line (its summary), as the page shows it."""
    return one_line(str(verdict.get("summary") or ""))


def environment_blocks(verdict: dict[str, Any]) -> list[Block]:
    """'Your environment', when one was pasted: the lines `check --environment` prints, as a list."""
    document = verdict.get("environment")
    if not isinstance(document, dict):
        return []
    from neuron_compat.check.environment_text import environment_lines

    lines = environment_lines(document)
    return [heading("Your environment", "your-environment"),
            bullets("environment", [[text(line.strip())] for line in lines[1:]])]


def answer_blocks(verdict: dict[str, Any]) -> list[Block]:
    """`check --json`'s document as the page shows it under its headline."""
    return (environment_blocks(verdict) + install_blocks(verdict) + stack_blocks(verdict) + fit_blocks(verdict)
            + evidence_blocks(verdict))


def explain_blocks(document: dict[str, Any]) -> list[Block]:
    """`explain --json`'s document as the page shows it: how many matched, then each known issue with its page, why it
    matched, what it is, the workaround and its sources."""
    issues = document.get("issues") or []
    if issues:
        plural = "" if len(issues) == 1 else "s"
        blocks = [paragraph(text(f"{len(issues)} known issue{plural} match, best first "
                                 f"(of {document.get('known_issues')} known)."))]
    else:
        blocks = [paragraph(text(f"No known issue matched ({document.get('known_issues')} known issues; "
                                 f"{document.get('browse_only')} of them quote no error text and are listed on the "
                                 "site only)."))]
    for refusal in document.get("refusals") or []:
        named = ", ".join(refusal.get("architectures") or []) or str(refusal.get("model_type"))
        blocks.append(paragraph(text(f"{refusal.get('stack')} refused {named}: {refusal.get('summary')}")))
    for match in issues:
        issue = match.get("issue") or {}
        said = [known_issue_link(match)]
        if match.get("why"):
            said.append(text(" — matched by " + "; ".join(match["why"])))
        blocks.append(paragraph(*said))
        details: list[list[Part]] = []
        if issue.get("description"):
            details.append([text(issue["description"])])
        if issue.get("workaround"):
            details.append([text("Workaround: " + str(issue["workaround"]))])
        if issue.get("fixed_in"):
            details.append([text(f"Fixed in {issue['fixed_in']}.")])
        families = [str(f) for f in issue.get("families") or [] if isinstance(f, str)]
        if families:
            details.append([text("Families: "), *linked_families(families)])
        details += [[text("Source: "), source_link(url)] for url in match.get("sources") or []]
        if details:
            blocks.append(bullets("issue", details))
    return blocks
