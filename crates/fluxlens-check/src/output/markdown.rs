//! `--format markdown`: a pull-request comment. One line of verdict, then only the tables that
//! have rows; what was resolved, what the render cannot see and the notes folded away.

use super::Report;
use crate::diff::StageMove;
use fluxlens_core::analyses::finding::{Finding, Severity};

/// Rows per table at most (a comment has a size limit; the JSON has everything).
pub const MAX_ROWS: usize = 50;

/// Text from the manifests, safe in a table cell: Markdown and HTML are escaped, lines joined,
/// and an `@` cannot mention anyone.
pub fn cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\n' | '\r' | '\t' => out.push(' '),
            '@' => out.push_str("@\u{200B}"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '(' | ')' | '#' | '|' | '!' | '~' => {
                out.push('\\');
                out.push(ch);
            }
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

fn rows<T>(out: &mut String, items: &[T], row: impl Fn(&T) -> String) {
    for item in items.iter().take(MAX_ROWS) {
        out.push_str(&row(item));
        out.push('\n');
    }
    if items.len() > MAX_ROWS {
        out.push_str(&format!(
            "\n… and {} more (`--format json` lists every one)\n",
            items.len() - MAX_ROWS
        ));
    }
}

fn findings_table(out: &mut String, findings: &[Finding]) {
    out.push_str("| Severity | Rule | Subject | Finding |\n|---|---|---|---|\n");
    rows(out, findings, |f| {
        format!(
            "| {} | {} | {} | {} |",
            f.severity.as_str(),
            cell(&f.rule),
            cell(&f.subject.to_string()),
            cell(&f.message)
        )
    });
}

fn migration_title(name: &str) -> &'static str {
    match name {
        "git_oci" => "Git → signed OCI root",
        "storage" => "Storage versions (flux migrate)",
        "distribution" => "Distribution switch",
        _ => "Migration",
    }
}

fn stage_cell(s: &StageMove) -> (String, String) {
    let base = s
        .base
        .as_ref()
        .map(|b| b.stage.clone())
        .unwrap_or_else(|| "—".into());
    let mut head = format!("{} ({})", s.head.stage, s.head.state);
    if s.backwards() {
        head.push_str(" — **moves backwards**");
    }
    (base, head)
}

/// The whole comment.
pub fn render(r: &Report) -> String {
    let c = r.change;
    let mut out = format!(
        "**fluxlens-check — {}**: {}\n\n",
        r.verdict(),
        cell(&r.summary())
    );
    let objects = match c.objects.0 {
        Some(b) => format!("{b} → {} Flux objects", c.objects.1),
        None => format!(
            "{} Flux objects, no base: everything found counts as added",
            c.objects.1
        ),
    };
    out.push_str(&format!(
        "Profile `{}` · fails on `{}` and above · {objects}\n",
        r.profile_name(),
        r.fail_on.as_str()
    ));
    deadlocks(&mut out, &c.added);
    order(&mut out, r);
    if !c.verify.is_empty() {
        out.push_str("\n#### Verify lost or weakened\n| Severity | Source | Change | Before | After |\n|---|---|---|---|---|\n");
        rows(&mut out, &c.verify, |v| {
            format!(
                "| {} | {} | {} | {} | {} |",
                v.severity.as_str(),
                cell(&v.subject.to_string()),
                v.change.as_str(),
                cell(&v.before),
                cell(&v.after)
            )
        });
    }
    // Informational findings (a census, the installer) are folded: at 2 a.m. a reviewer reads
    // what can hurt.
    let (info, graded): (Vec<Finding>, Vec<Finding>) = c
        .added
        .iter()
        .cloned()
        .partition(|f| f.severity == Severity::Info);
    if !graded.is_empty() {
        out.push_str(&format!("\n#### Findings added ({})\n", graded.len()));
        findings_table(&mut out, &graded);
    }
    if !c.missing_added.is_empty() {
        out.push_str("\n#### References to nothing\n| Reference | Named by |\n|---|---|\n");
        rows(&mut out, &c.missing_added, |m| {
            let from: Vec<String> = m.from.iter().map(|k| cell(&k.to_string())).collect();
            format!("| {} | {} |", cell(&m.target.to_string()), from.join(", "))
        });
    }
    if !c.cycles_added.is_empty() {
        out.push_str("\n#### dependsOn cycles added\n");
        rows(&mut out, &c.cycles_added, |cy| {
            let mut keys: Vec<String> = cy.iter().map(|k| cell(&k.to_string())).collect();
            keys.push(keys[0].clone());
            format!("- {}", keys.join(" → "))
        });
    }
    let started: Vec<(&&str, &StageMove)> = c
        .stages
        .iter()
        .filter(|(_, s)| s.head.order >= 0 || s.base.as_ref().is_some_and(|b| b.order >= 0))
        .collect();
    if !started.is_empty() {
        out.push_str("\n#### Migrations\n| Migration | Base | Head |\n|---|---|---|\n");
        for (name, s) in started {
            let (base, head) = stage_cell(s);
            out.push_str(&format!(
                "| {} | {base} | {head} |\n",
                migration_title(name)
            ));
        }
        out.push_str("\nStages as if the change reconciles: checks that need the cluster's status are taken as passing.\n");
        if c.order.as_ref().is_some_and(|j| !j.order.safe()) {
            out.push_str("The change never lands as a whole (see the reconcile order above): the head stage is where it would stand, not where the cluster will.\n");
        }
    }
    folded(&mut out, r, &info);
    out
}

/// MIG-GO-15 heads the comment: the chain of waits in full and the safe order.
fn deadlocks(out: &mut String, added: &[Finding]) {
    let held: Vec<&Finding> = added
        .iter()
        .filter(|f| f.rule == crate::order::RULE && f.severity >= Severity::High)
        .collect();
    for f in held {
        out.push_str(&format!(
            "\n#### ⛔ {} bootstrap deadlock ({}): the cluster freezes at merge\n\n{}\n\n**Safe order:** {}\n",
            f.rule,
            f.severity.as_str(),
            cell(&f.message),
            cell(&f.remediation)
        ));
        if f.members.len() > 1 {
            out.push_str(&format!(
                "\n<details><summary>{} objects never reconcile</summary>\n\n",
                f.members.len()
            ));
            rows(out, &f.members, |k| format!("- {}", cell(&k.to_string())));
            out.push_str("\n</details>\n");
        }
    }
}

/// The order the change lands in, and what the merge needs that no render shows.
fn order(out: &mut String, r: &Report) {
    let Some(j) = &r.change.order else {
        if !r.has_base {
            out.push_str(
                "\nThe order the change lands in is not judged without a base (`--base`).\n",
            );
        }
        return;
    };
    let o = &j.order;
    out.push_str("\n#### Reconcile order\n");
    // One voice (#69): never "every object reconciles" above a reference that waits forever.
    let dangling = r.change.missing_added.len();
    if let Some(race) = o.races.first().filter(|_| o.safe()) {
        // One voice (#69): a change that converges in one order only says so here too.
        out.push_str(&format!(
            "It lands in {} only if {} applies the new revision before {} applies its new spec; in the other order delivery freezes (MIG-GO-17).\n",
            fluxlens_core::analyses::verdict::plural(o.waves.len(), "wave"),
            cell(&race.child.to_string()),
            cell(&race.parent.to_string())
        ));
    } else if o.safe() && dangling > 0 {
        out.push_str(&format!(
            "The rest reconciles in {}, but what names the {} below waits forever.\n",
            fluxlens_core::analyses::verdict::plural(o.waves.len(), "wave"),
            if dangling == 1 {
                "reference to nothing"
            } else {
                "references to nothing"
            }
        ));
    } else if o.safe() {
        out.push_str(&format!(
            "Every object reconciles: the change lands in {} (the root applies the repository, each applier its objects' new specs, each waits for its source and dependsOn).\n",
            fluxlens_core::analyses::verdict::plural(o.waves.len(), "wave")
        ));
    } else {
        // Each with its chain here: a chain a finding holds is not always one this change
        // added (an object nothing applies is no finding), so "see below" could point at nothing.
        out.push_str(&format!(
            "{} never {} {} new spec after the merge:\n",
            fluxlens_core::analyses::verdict::plural(o.stuck.len(), "object"),
            fluxlens_core::util::words::agree(o.stuck.len(), "reaches", "reach"),
            fluxlens_core::util::words::agree(o.stuck.len(), "its", "their")
        ));
        for s in o.stuck.iter().take(8) {
            let chain = fluxlens_core::analyses::order::describe(&s.object, &s.chain);
            out.push_str(&format!("- {}\n", cell(&chain)));
        }
        if o.stuck.len() > 8 {
            out.push_str(&format!("- … {} in all\n", o.stuck.len()));
        }
        out.push_str(
            "\nWhat does, wave by wave (the root Kustomization runs first at its current spec, applying the repository):\n",
        );
    }
    for (i, w) in o.waves.iter().enumerate().take(8) {
        let names: Vec<String> = w.iter().take(8).map(|k| cell(&k.to_string())).collect();
        let more = if w.len() > 8 {
            format!(" … {} in all", w.len())
        } else {
            String::new()
        };
        out.push_str(&format!("{}. {}{more}\n", i + 1, names.join(", ")));
    }
    if !o.assumed_root.is_empty() {
        out.push_str(&format!(
            "\n{} carry no applier label or inventory: taken as applied by the root Kustomization. Render with `flux build` (or keep the labels) to judge their order.\n",
            fluxlens_core::analyses::verdict::plural(o.assumed_root.len(), "changed object")
        ));
    }
    if !j.preconditions.is_empty() {
        out.push_str("\n#### Before you merge (a render cannot check these)\n");
        for p in &j.preconditions {
            out.push_str(&format!("- [ ] {}\n", cell(p)));
        }
    }
}

/// Resolved findings, what the render cannot see, and the notes: folded.
fn folded(out: &mut String, r: &Report, info: &[Finding]) {
    let c = r.change;
    if !info.is_empty() {
        out.push_str(&format!(
            "\n<details><summary>Also added, informational ({})</summary>\n\n",
            info.len()
        ));
        findings_table(out, info);
        out.push_str("\n</details>\n");
    }
    if !c.resolved.is_empty() {
        out.push_str(&format!(
            "\n<details><summary>Resolved ({})</summary>\n\n",
            c.resolved.len()
        ));
        findings_table(out, &c.resolved);
        out.push_str("\n</details>\n");
    }
    if !c.unresolved.is_empty() {
        out.push_str(&format!(
            "\n<details><summary>Not in this render ({}): neither missing nor present</summary>\n\n",
            c.unresolved.len()
        ));
        rows(out, &c.unresolved, |(k, why)| {
            format!("- {} — {}", cell(&k.to_string()), cell(why))
        });
        out.push_str("\n</details>\n");
    }
    if !c.notes.is_empty() {
        out.push_str("\n<details><summary>Notes</summary>\n\n");
        rows(out, &c.notes, |n| format!("- {}", cell(n)));
        out.push_str("\n</details>\n");
    }
}

#[cfg(test)]
mod tests {
    use super::cell;

    #[test]
    fn manifest_text_cannot_break_the_table_or_mention() {
        let hostile =
            "a|b <img src=x onerror=alert(1)> @platform-team\n**bold** [link](http://x) `code`";
        let c = cell(hostile);
        assert!(
            !c.contains('\n') && !c.contains("<img") && c.starts_with("a\\|b "),
            "{c}"
        );
        assert!(c.contains("@\u{200B}platform-team"), "{c}");
        assert_eq!(cell("a_b*c"), "a\\_b\\*c");
    }
}
