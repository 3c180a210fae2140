//! Tests of the best-turn search: against the plain definition, under a memory cap and a node
//! limit, and on the turns it applies to.

use super::*;
use crate::game::row_rng;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

fn game(players: usize) -> AQuantumLeap {
    AQuantumLeap {
        players,
        match_play: false,
        packs: 1,
        teams: false,
    }
}

fn solve(g: &AQuantumLeap, s: &AQuantumLeapState) -> Result<BestTurn> {
    let cancel = AtomicBool::new(false);
    best_turn(g, s, &Context::new(Limits::default(), None, &cancel))
}

/// The definition, played out plainly on the engine: every legal action, memoised on the
/// full top cards; the smallest (−value, cards, actions).
fn plain(g: &AQuantumLeap, s: &AQuantumLeapState) -> (i32, usize, Vec<Action>) {
    type Memo = HashMap<([Card; CELLS], u64, Pattern, u8), (i32, usize, Vec<Action>)>;
    fn rest(g: &AQuantumLeap, s: &AQuantumLeapState, memo: &mut Memo) -> (i32, usize, Vec<Action>) {
        let p = s.player as usize;
        let key = (s.tops, s.hands[p], s.pattern.unwrap(), s.placed.min(5));
        if let Some(v) = memo.get(&key) {
            return v.clone();
        }
        let mut actions = Vec::new();
        g.legal_actions(s, &mut actions);
        let mut best: Option<(i32, usize, Vec<Action>)> = None;
        for a in actions {
            let option = if a == END || a == PASS {
                (0, 0, vec![a])
            } else {
                let mut t = *s;
                g.apply(&mut t, a);
                let mine = t.scores[p] - s.scores[p];
                let pen = (0..g.players).any(|q| q != p && t.scores[q] > s.scores[q]);
                let gain = mine - 4 * pen as i32;
                let same =
                    t.phase == Phase::Play && t.player == s.player && t.placed == s.placed + 1;
                let (v, c, tail) = if same {
                    rest(g, &t, memo)
                } else {
                    (0, 0, vec![])
                };
                let mut line = vec![a];
                line.extend(tail);
                (gain + v, c + 1, line)
            };
            let better = best
                .as_ref()
                .is_none_or(|b| (-option.0, option.1, &option.2) < (-b.0, b.1, &b.2));
            if better {
                best = Some(option);
            }
        }
        let best = best.unwrap();
        memo.insert(key, best.clone());
        best
    }
    rest(g, s, &mut HashMap::new())
}

/// Stage-two positions reached by random play, the mover holding at most `most` cards.
fn positions(players: usize, seed: u64, count: usize, most: u32) -> Vec<AQuantumLeapState> {
    let g = game(players);
    let mut rng = row_rng(seed, 0);
    let mut out = Vec::new();
    let mut actions = Vec::new();
    while out.len() < count {
        let mut s = g.new_state();
        while s.phase != Phase::End {
            if s.phase == Phase::Play
                && s.hands[s.player as usize].count_ones() <= most
                && rng.random_range(0..4) == 0
            {
                out.push(s);
            }
            if matches!(s.phase, Phase::Leave | Phase::Draw) {
                let a = g.sample_chance(&s, &mut rng);
                g.apply(&mut s, a);
            } else {
                g.legal_actions(&s, &mut actions);
                let a = actions[rng.random_range(0..actions.len())];
                g.apply(&mut s, a);
            }
        }
    }
    out.truncate(count);
    out
}

/// Covers the subtle cases as they come in play: the fifth card's penalty (and none when
/// nobody else has cards in hand), the quantum leap's switch of pattern mid-turn, the two rules
/// of an Ace–2 placement in `opening`/`free`, the last card ending the game without `end`,
/// a hand emptied mid-turn (only `end`), `pass`, and the tie-break between equal lines.
#[test]
fn the_search_agrees_with_the_plain_definition() {
    for players in 2..=4 {
        let g = game(players);
        for s in positions(players, players as u64, 150, 7) {
            let best = solve(&g, &s).unwrap();
            let (value, cards, actions) = plain(&g, &s);
            assert_eq!(best.actions, actions, "{}", g.notation(&s));
            assert_eq!(best.points - 4 * best.penalty as i32, value);
            assert_eq!(
                best.actions.iter().filter(|&&a| a < END - 52 - 9).count(),
                cards
            );
        }
    }
}

#[test]
fn a_memo_capped_by_memory_gives_the_same_answer() {
    let g = game(3);
    let cancel = AtomicBool::new(false);
    for s in positions(3, 9, 30, 8) {
        let tiny = Limits {
            memory_mb: 1,
            ..Limits::default()
        };
        let small = best_turn(&g, &s, &Context::new(tiny, None, &cancel)).unwrap();
        let full = solve(&g, &s).unwrap();
        assert_eq!((small.actions, small.points), (full.actions, full.points));
    }
}

#[test]
fn it_applies_to_stage_two_turns_only() {
    let g = game(3);
    let s = g.new_state();
    assert!(matches!(solve(&g, &s), Err(Error::NotApplicable(_))));
    let cancel = AtomicBool::new(false);
    let ctx = Context::new(Limits::default(), None, &cancel);
    assert!(matches!(
        best_higgs(&g, &s, &ctx),
        Err(Error::NotApplicable(_))
    ));
}

#[test]
fn a_node_limit_stops_the_search() {
    let g = game(4);
    let s = positions(4, 1, 1, 13)[0];
    let cancel = AtomicBool::new(false);
    let limits = Limits {
        max_nodes: Some(0),
        ..Limits::default()
    };
    let r = best_turn(&g, &s, &Context::new(limits, None, &cancel));
    assert!(matches!(r, Err(Error::SearchLimit { .. })));
    let cancel = AtomicBool::new(true);
    let r = best_turn(&g, &s, &Context::new(Limits::default(), None, &cancel));
    assert!(r.is_err() || r.unwrap().nodes < 1024);
}
