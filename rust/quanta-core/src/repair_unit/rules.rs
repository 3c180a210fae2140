//! The turn of Quantum Repair Unit as the engine plays it: the effects a card offers, the
//! steps of a turn, the draw, the moves and placing of cards, the end of a turn and of the game
//! (docs/rules/repair_unit.md, *The turn as decisions* and *End*).

use super::*;

impl RepairUnit {
    /// The effect options of the pending card (beyond "no effect"), appended to `out`.
    pub(super) fn effect_options(&self, s: &RepairState, out: &mut impl Extend<Action>) {
        let Some(c) = self.effect_card(s) else {
            return;
        };
        let (a, len) = (s.active as usize, self.length());
        match rank(c) {
            JACK => {
                if s.top == NONE && s.unseen != 0 {
                    out.extend([PEEK]);
                }
            }
            ACE => out.extend([ACE_UNDER]),
            KING => {
                for f in 0..self.forecasts() {
                    for i in 0..len {
                        let x = s.up[f][i];
                        let itself = f == a && s.pending == Pending::Tunnelled(i as u8);
                        if x != NONE && !itself {
                            out.extend([KING_AT + (f * 3 + i) as Action]);
                        }
                    }
                }
                if s.drawn != NONE && s.pending != Pending::Drawn {
                    out.extend([KING_DRAWN]);
                }
                if s.target != NONE {
                    out.extend([KING_TARGET]);
                }
            }
            QUEEN => {
                for i in 0..len {
                    for f in (0..self.forecasts()).filter(|&f| f != a) {
                        for j in 0..len {
                            out.extend([QUEEN_SWAP + ((i * 4 + f) * 3 + j) as Action]);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    pub(super) fn has_effect_options(&self, s: &RepairState) -> bool {
        let mut v = smallvec::SmallVec::<[Action; 16]>::new();
        self.effect_options(s, &mut v);
        !v.is_empty()
    }

    /// Runs the turn on through every step that needs no decision and no chance, until the
    /// team must decide, a card must come, or the game is over.
    pub fn settle(&self, s: &mut RepairState) {
        loop {
            match s.pending {
                Pending::Peek => return,
                Pending::Drawn | Pending::Tunnelled(_) => {
                    if self.has_effect_options(s) {
                        return;
                    }
                    s.pending = Pending::None;
                }
                Pending::None => {}
            }
            match s.step {
                Step::Deal | Step::Won | Step::Lost => return,
                Step::Draw => {
                    let card = if s.top != NONE {
                        std::mem::replace(&mut s.top, NONE)
                    } else if s.unseen != 0 {
                        return; // an unseen card comes: chance
                    } else if !s.queue.is_empty() {
                        s.queue.pop_front()
                    } else {
                        s.step = Step::Move; // the deck is empty: no card
                        continue;
                    };
                    self.drawn(s, card);
                }
                Step::Start | Step::Move | Step::End => {
                    if !s.tunnelled && self.any_face_up(s, s.active as usize) {
                        return;
                    }
                    self.advance(s);
                }
            }
        }
    }

    /// Leaves the current tunnel point: Start → the draw; Move → steps 2-4; End → the next turn.
    pub(super) fn advance(&self, s: &mut RepairState) {
        match s.step {
            Step::Start => s.step = Step::Draw,
            Step::Move => self.move_and_place(s),
            Step::End => self.end_turn(s),
            _ => {}
        }
    }

    /// Step 1's card: it lies beside the forecast, its effect (if any) pending.
    pub(super) fn drawn(&self, s: &mut RepairState, card: Card) {
        s.drawn = card;
        s.step = Step::Move;
        s.pending = Pending::Drawn;
    }

    /// Steps 2 to 4: the face-up cards move forward, the front one onto the target; a
    /// mismatch ends the game lost (the position kept as it was before the move); then the
    /// drawn card goes face up on the back position.
    pub(super) fn move_and_place(&self, s: &mut RepairState) {
        let (a, len) = (s.active as usize, self.length());
        let front = s.up[a][0];
        if front != NONE {
            if s.target == NONE {
                s.target = front;
            } else if rank(s.target) == rank(front) {
                s.removed |= 1 << s.target | 1 << front;
                s.target = NONE;
                s.idle = 0;
            } else {
                self.finish(s, Step::Lost);
                return;
            }
        }
        for i in 0..len - 1 {
            s.up[a][i] = s.up[a][i + 1];
        }
        s.up[a][len - 1] = std::mem::replace(&mut s.drawn, NONE);
        s.step = Step::End;
    }

    /// The next forecast's turn, unless the game is over: the deck empty and no face-up card
    /// left in any forecast is a win with no target waiting, a loss with one; after
    /// [`IDLE_TURNS`] turns without progress the game is lost.
    pub(super) fn end_turn(&self, s: &mut RepairState) {
        let idle = (0..self.forecasts()).all(|f| !self.any_face_up(s, f));
        if self.deck_empty(s) && idle {
            let result = if s.target == NONE {
                Step::Won
            } else {
                Step::Lost
            };
            self.finish(s, result);
            return;
        }
        if s.unseen == 0 {
            s.idle += 1;
            if s.idle >= IDLE_TURNS {
                self.finish(s, Step::Lost);
                return;
            }
        }
        s.active = ((s.active as usize + 1) % self.forecasts()) as u8;
        s.tunnelled = false;
        s.step = Step::Start;
    }

    pub(super) fn finish(&self, s: &mut RepairState, result: Step) {
        s.step = result;
        s.active = 0;
        s.pending = Pending::None;
        s.tunnelled = false;
    }

    /// The next setup card goes face down on the first empty position.
    pub(super) fn deal(&self, s: &mut RepairState, card: Card) {
        s.unseen &= !(1 << card);
        let len = self.length();
        let slot = (0..self.setup_cards()).find(|&k| s.down[k / len][k % len] == NONE);
        if let Some(k) = slot {
            s.down[k / len][k % len] = card;
        }
        if slot.is_none_or(|k| k + 1 == self.setup_cards()) {
            s.step = Step::Start;
            self.settle(s);
        }
    }

    /// Puts `card` under the deck (a King's or an Ace's effect).
    pub(super) fn under(&self, s: &mut RepairState, card: Card) {
        s.queue.push_back(card);
    }
}
