//! What the sender computed, carried by a snapshot whose messages were dropped.
//!
//! Rules read condition and event messages (a verify failure's cause, an `OutdatedVersion`
//! notice, a distroless limit, the verified revision), so a receiver recomputing from blanked
//! messages would say "pass" where the live page says "fail". A message-less snapshot therefore
//! carries the findings the sender's page showed — with every dropped message cut out of them —
//! and the receiver shows those instead of recomputing (#30: never less true than the page).

use crate::analyses::compliance::{self, Profile, ProfileName};
use crate::analyses::facts::cluster::ClusterFacts;
use crate::analyses::findings::{self, Finding};
use crate::model::Cluster;
use serde::{Deserialize, Serialize};

/// Written where a finding quoted a message that was dropped.
pub const DROPPED: &str = "[message not in this snapshot]";

/// The sender's findings: every per-object finding, and the ENT findings per profile.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Verdicts {
    pub per_object: Vec<Finding>,
    pub ent: Vec<(String, Vec<Finding>)>,
}

impl Verdicts {
    /// Computes what the sender's page shows, then cuts every message in `dropped` out of it.
    pub fn capture(c: &Cluster, dropped: &[String]) -> Verdicts {
        let cut = |f: Finding| without(f, dropped);
        let c = &ClusterFacts::of(c);
        // The ENT findings are carried for each profile the compliance view offers.
        let ent = ProfileName::ALL
            .into_iter()
            .map(|p| {
                let f = compliance::findings(c, &p.profile()).into_iter().map(cut);
                (p.to_string(), f.collect())
            })
            .collect();
        Verdicts {
            per_object: findings::evaluate_all(c).into_iter().map(cut).collect(),
            ent,
        }
    }

    /// The ENT findings for a profile. A minimum operator version set on the receiving side
    /// is a comparison of the report's version, which the snapshot keeps: recomputed, added.
    pub fn ent_for(&self, c: &Cluster, profile: &Profile) -> Vec<Finding> {
        let mut out = self
            .ent
            .iter()
            .find(|(p, _)| p == profile.name().as_str())
            .map(|(_, f)| f.clone())
            .unwrap_or_default();
        if profile.min_operator_version.is_some() {
            let extra: Vec<Finding> = compliance::findings(&ClusterFacts::of(c), profile)
                .into_iter()
                .filter(|f| f.rule == "ENT-14" && !out.iter().any(|o| o.message == f.message))
                .collect();
            out.extend(extra);
        }
        out
    }
}

/// One finding as a snapshot carries it: a finding the receiver computes alike from the
/// message-less snapshot travels as its position in the receiver's list; only those it would
/// compute otherwise travel whole (#46: carrying every finding made a link without messages
/// larger than one with them). Links written before carry every finding whole.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Carried {
    Same(u32),
    Own(Box<Finding>),
}

/// [`Verdicts`] as a snapshot carries them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CarriedVerdicts {
    pub per_object: Vec<Carried>,
    pub ent: Vec<(String, Vec<Carried>)>,
}

/// What a receiver computes from an opened message-less snapshot, per list.
struct Computed {
    per_object: Vec<Finding>,
    ent: Vec<(String, Vec<Finding>)>,
}

impl Computed {
    fn of(c: &Cluster) -> Computed {
        let c = &ClusterFacts::of(c);
        Computed {
            per_object: findings::evaluate_with(c),
            ent: ProfileName::ALL
                .into_iter()
                .map(|p| (p.to_string(), compliance::findings(c, &p.profile())))
                .collect(),
        }
    }

    fn ent(&self, profile: &str) -> &[Finding] {
        self.ent
            .iter()
            .find(|(p, _)| p == profile)
            .map_or(&[], |(_, f)| f.as_slice())
    }
}

fn carry(sent: &[Finding], computed: &[Finding]) -> Vec<Carried> {
    sent.iter()
        .map(|f| match computed.iter().position(|x| x == f) {
            Some(i) => Carried::Same(i as u32),
            None => Carried::Own(Box::new(f.clone())),
        })
        .collect()
}

fn resolve(carried: Vec<Carried>, computed: &[Finding]) -> Vec<Finding> {
    carried
        .into_iter()
        .filter_map(|c| match c {
            Carried::Same(i) => computed.get(i as usize).cloned(),
            Carried::Own(f) => Some(*f),
        })
        .collect()
}

impl Verdicts {
    /// Every finding carried whole (before the receiver's computation is known).
    pub fn whole(self) -> CarriedVerdicts {
        let own = |v: Vec<Finding>| v.into_iter().map(|f| Carried::Own(Box::new(f))).collect();
        CarriedVerdicts {
            per_object: own(self.per_object),
            ent: self.ent.into_iter().map(|(p, f)| (p, own(f))).collect(),
        }
    }
}

impl CarriedVerdicts {
    /// Replaces each finding `receiver` computes alike by its position.
    pub fn against(self, receiver: &Cluster) -> CarriedVerdicts {
        let computed = Computed::of(receiver);
        let full = self.resolve(receiver);
        CarriedVerdicts {
            per_object: carry(&full.per_object, &computed.per_object),
            ent: full
                .ent
                .iter()
                .map(|(p, f)| (p.clone(), carry(f, computed.ent(p))))
                .collect(),
        }
    }

    /// The sender's findings, whole again, on the receiving side.
    pub fn resolve(self, receiver: &Cluster) -> Verdicts {
        let computed = Computed::of(receiver);
        Verdicts {
            per_object: resolve(self.per_object, &computed.per_object),
            ent: self
                .ent
                .into_iter()
                .map(|(p, f)| {
                    let f = resolve(f, computed.ent(&p));
                    (p, f)
                })
                .collect(),
        }
    }
}

/// What replaces a dropped condition message: the verified revision of a `SourceVerified`
/// verdict is a fact the signatures view shows, not free text, so it stays.
pub fn replacement(condition_type: &str, status: &str, message: &str) -> String {
    let revision = (condition_type == "SourceVerified" && status == "True")
        .then(|| crate::analyses::signatures::verified_revision(message))
        .flatten();
    match revision {
        Some(rev) => format!("{DROPPED} (verified revision {rev})"),
        None => DROPPED.to_string(),
    }
}

/// A finding with every dropped message cut out of its text.
pub(crate) fn without(mut f: Finding, dropped: &[String]) -> Finding {
    let cut = |s: &mut String| {
        for m in dropped {
            if s.contains(m.as_str()) {
                *s = s.replace(m.as_str(), DROPPED);
            }
        }
    };
    cut(&mut f.message);
    f.evidence.iter_mut().for_each(cut);
    cut(&mut f.reason);
    cut(&mut f.remediation);
    f
}

/// The findings an opened snapshot shows: the sender's when it carried them.
pub fn per_object(c: &ClusterFacts, v: Option<&Verdicts>) -> Vec<Finding> {
    match v {
        Some(v) => v.per_object.clone(),
        None => findings::evaluate_with(c),
    }
}

/// The compliance findings an opened snapshot shows for a profile.
pub fn compliance_findings(c: &Cluster, profile: &Profile, v: Option<&Verdicts>) -> Vec<Finding> {
    match v {
        Some(v) => v.ent_for(c, profile),
        None => compliance::findings(&ClusterFacts::of(c), profile),
    }
}
