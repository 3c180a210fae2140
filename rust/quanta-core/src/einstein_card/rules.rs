//! EinStein a la Card's turn: which cards may be played, what each special card does, the
//! draws from the heap and the end of a turn (docs/rules/einstein_card.md, *Rules*). The board,
//! its steps and captures are EinStein's.

use super::*;
use crate::bits::Bits;

impl EinsteinCardState {
    /// `player`'s last played card.
    pub(super) fn last(&self, player: u8) -> Option<u8> {
        let n = self.played[player as usize] as usize;
        (n > 0).then(|| self.discards[player as usize][n - 1])
    }

    /// The card Da Capo resolves as now: the opponent's last card, or the player's own if that
    /// was Da Capo; None when there is no such card.
    pub(super) fn da_capo_copy(&self) -> Option<u8> {
        match self.last(1 - self.player) {
            Some(DA_CAPO) => self.last(self.player).filter(|&k| k != DA_CAPO),
            other => other,
        }
    }

    /// The cards `player` may play: every kind in hand that can be resolved; a hand of only
    /// Da Capo with nothing to copy plays it without effect.
    pub(super) fn for_each_play(&self, mut f: impl FnMut(Action)) {
        let hand = &self.hands[self.player as usize];
        // Da Capo is held back only when it has nothing to copy and another card can be played.
        let others = hand
            .iter()
            .enumerate()
            .any(|(k, &n)| n > 0 && k != DA_CAPO as usize);
        let hold_da_capo = others && self.da_capo_copy().is_none();
        for k in 0..KINDS as u8 {
            if hand[k as usize] > 0 && !(k == DA_CAPO && hold_da_capo) {
                f(PLAY + k as Action);
            }
        }
    }

    /// Starts resolving `kind` for `player` (a Da Capo as the card it copies; `None`: Da Capo
    /// with nothing to copy, no effect).
    pub(super) fn resolve(&mut self, kind: Option<u8>) {
        let Some(kind) = kind else {
            return self.end_turn();
        };
        self.phase = match kind {
            0..=5 => Phase::Number(kind + 1),
            MURPHY_LIGHT => Phase::Murphy,
            FULL_MURPHY => Phase::Full,
            DA_CAPO => unreachable!("Da Capo resolves as the card it copies"),
            DIRAC => Phase::Dirac,
            HEISENBERG => Phase::Heisenberg,
            _ => Phase::Schroedinger,
        }
    }

    /// After a step or a Schroedinger roll: the game is over if someone has won, otherwise
    /// the player draws (if its heap has cards) and the turn passes.
    pub(super) fn after_effect(&mut self) {
        if self.board.someone_won() {
            self.phase = Phase::Over;
        } else {
            self.end_turn();
        }
    }

    pub(super) fn end_turn(&mut self) {
        if count(&self.heaps[self.player as usize]) > 0 {
            self.phase = Phase::Draw;
        } else {
            self.next_turn();
        }
    }

    pub(super) fn next_turn(&mut self) {
        self.player = 1 - self.player;
        self.phase = if count(&self.hands[self.player as usize]) == 0 {
            Phase::Over
        } else {
            Phase::Play
        };
    }

    pub(super) fn take(&mut self, kind: u8) {
        let p = self.player as usize;
        self.heaps[p][kind as usize] -= 1;
        self.hands[p][kind as usize] += 1;
    }

    /// The cells holding a stone of `player` (any side for `None`).
    pub(super) fn for_each_stone(&self, player: Option<u8>, mut f: impl FnMut(u8)) {
        let cells = match player {
            Some(p) => self.board.occupied(p),
            None => self.board.occupied(0) | self.board.occupied(1),
        };
        for cell in cells.cells() {
            f(cell as u8);
        }
    }
}

impl EinsteinCard {
    /// The side that decides now (the opponent under Murphy Light and Full Murphy).
    pub(super) fn decider(s: &EinsteinCardState) -> u8 {
        match s.phase {
            Phase::Murphy | Phase::Full => 1 - s.player,
            _ => s.player,
        }
    }

    /// `draw <card>` actions of the player's heap, with the odds of each (copies / cards).
    pub(super) fn for_each_draw(s: &EinsteinCardState, mut f: impl FnMut(Action, f64)) {
        let heap = &s.heaps[s.player as usize];
        let total = count(heap) as f64;
        for (k, &n) in heap.iter().enumerate() {
            if n > 0 {
                f(DRAW + k as Action, n as f64 / total);
            }
        }
    }
}
