//! The notation of a position (docs/rules/repair_unit.md, *Notation*):
//! `<forecasts> <target> <drawn> <deck> <removed> <idle> <turn>`, e.g. at the first turn
//! of a solo game `7H,QS,2C|AD,5S,9C - - *46 - 0 A:draw` or, later,
//! `7H+3D,QS,2C+KH|AD,5S,9C - - JS,*30,4C - 1 B:move:t:A2`.

use super::{
    ACE_UNDER, CARDS, Card, GO_ON, IDLE_TURNS, KING_AT, KING_DRAWN, KING_TARGET, NO_EFFECT, NONE,
    PACK, PEEK, Pending, QUEEN_SWAP, RepairState, RepairUnit, Step, TUNNEL, cards, code, from_code,
    rank,
};
use crate::error::{Error, Result, quoted};
use crate::game::Action;

fn write_set(set: u64, out: &mut String) {
    if set == 0 {
        out.push('-');
    }
    for (k, c) in cards(set).enumerate() {
        if k > 0 {
            out.push(',');
        }
        out.push_str(&code(c));
    }
}

fn card_or_dash(c: Card) -> String {
    if c == NONE { "-".into() } else { code(c) }
}

/// The turn field: `deal`, `won`, `lost` or `<forecast>:<step>[:t][:<pending>]`.
fn turn_field(s: &RepairState) -> String {
    let step = match s.step {
        Step::Deal => return "deal".into(),
        Step::Won => return "won".into(),
        Step::Lost => return "lost".into(),
        Step::Start => "start",
        Step::Draw => "draw",
        Step::Move => "move",
        Step::End => "end",
    };
    let mut out = format!("{}:{step}", (b'A' + s.active) as char);
    if s.tunnelled {
        out.push_str(":t");
    }
    match s.pending {
        Pending::None => {}
        Pending::Drawn => out.push_str(":drawn"),
        Pending::Peek => out.push_str(":peek"),
        Pending::Tunnelled(i) => {
            out.push(':');
            out.push_str(&RepairUnit::place_name(s.active as usize, i as usize));
        }
    }
    out
}

pub fn write(game: &RepairUnit, s: &RepairState) -> String {
    let mut out = String::with_capacity(96);
    for f in 0..game.forecasts() {
        if f > 0 {
            out.push('|');
        }
        for i in 0..game.length() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&card_or_dash(s.down[f][i]));
            if s.up[f][i] != NONE {
                out.push('+');
                out.push_str(&code(s.up[f][i]));
            }
        }
    }
    out.push(' ');
    out.push_str(&card_or_dash(s.target));
    out.push(' ');
    out.push_str(&card_or_dash(s.drawn));
    out.push(' ');
    let mut deck: Vec<String> = Vec::new();
    if s.top != NONE {
        deck.push(code(s.top));
    }
    if s.unseen != 0 {
        deck.push(format!("*{}", s.unseen.count_ones()));
    }
    deck.extend(s.queue.as_slice().iter().map(|&c| code(c)));
    out.push_str(&if deck.is_empty() {
        "-".into()
    } else {
        deck.join(",")
    });
    out.push(' ');
    write_set(s.removed, &mut out);
    out.push(' ');
    out.push_str(&s.idle.to_string());
    out.push(' ');
    out.push_str(&turn_field(s));
    out
}

fn bad(text: &str, what: impl std::fmt::Display) -> Error {
    Error::InvalidNotation(format!("repair_unit: {what} in {}", quoted(text)))
}

/// Reads the notation and checks that it is a position of this game (every card once, the
/// turn consistent with the cards, the position settled: see docs/rules/repair_unit.md).
pub fn parse(game: &RepairUnit, text: &str) -> Result<RepairState> {
    let fields: Vec<&str> = text.split(' ').collect();
    let [forecasts, target, drawn, deck, removed, idle, turn] = fields[..] else {
        return Err(bad(
            text,
            "expected seven fields separated by single spaces: <forecasts> <target> <drawn> \
             <deck> <removed> <idle> <turn>",
        ));
    };
    let mut s = game.fresh();
    s.unseen = 0;
    let mut seen = 0u64;
    let mut take = |entry: &str, what: &str| -> Result<Card> {
        let c = from_code(entry).ok_or_else(|| {
            bad(
                text,
                format!(
                    "{} ({what}) is not a card code (rank A23456789TJQK, suit SHDC)",
                    quoted(entry)
                ),
            )
        })?;
        if seen & 1 << c != 0 {
            return Err(bad(text, format!("{entry} appears twice")));
        }
        seen |= 1 << c;
        Ok(c)
    };
    let card_or_none =
        |entry: &str, what: &str, take: &mut dyn FnMut(&str, &str) -> Result<Card>| {
            if entry == "-" {
                Ok(NONE)
            } else {
                take(entry, what)
            }
        };

    let (fs, len) = (game.forecasts(), game.length());
    let rows: Vec<&str> = forecasts.split('|').collect();
    if rows.len() != fs {
        return Err(bad(
            text,
            format!(
                "expected {fs} forecasts separated by '|', found {}",
                rows.len()
            ),
        ));
    }
    for (f, row) in rows.iter().enumerate() {
        let places: Vec<&str> = row.split(',').collect();
        if places.len() != len {
            return Err(bad(
                text,
                format!("forecast {} has {} positions, not {len}", f, places.len()),
            ));
        }
        for (i, place) in places.iter().enumerate() {
            let name = RepairUnit::place_name(f, i);
            let (down, up) = match place.split_once('+') {
                Some((d, u)) => (d, Some(u)),
                None => (*place, None),
            };
            s.down[f][i] = card_or_none(down, &format!("face down on {name}"), &mut take)?;
            if let Some(u) = up {
                if s.down[f][i] == NONE {
                    return Err(bad(
                        text,
                        format!("{name} has a face-up card but no face-down one"),
                    ));
                }
                s.up[f][i] = take(u, &format!("face up on {name}"))?;
            }
        }
    }
    s.target = card_or_none(target, "the target", &mut take)?;
    s.drawn = card_or_none(drawn, "the drawn card", &mut take)?;

    let mut unseen_count = None;
    if deck != "-" {
        let items: Vec<&str> = deck.split(',').collect();
        let star = items.iter().position(|x| x.starts_with('*'));
        let (before, after) = match star {
            Some(k) => (&items[..k], &items[k + 1..]),
            None => (&items[..0], &items[..]),
        };
        if before.len() > 1 {
            return Err(bad(
                text,
                "only one card of the deck above its unseen cards can be known (a Jack's look)",
            ));
        }
        if let Some(&t) = before.first() {
            s.top = take(t, "the deck's top")?;
        }
        if let Some(k) = star {
            let n = &items[k][1..];
            let count: usize = n
                .parse()
                .ok()
                .filter(|v: &usize| v.to_string() == n && (1..=CARDS).contains(v))
                .ok_or_else(|| {
                    bad(
                        text,
                        format!(
                            "{} must be * and a count of unseen cards from 1 to 52",
                            quoted(items[k])
                        ),
                    )
                })?;
            unseen_count = Some(count);
        }
        for &q in after {
            if q.starts_with('*') {
                return Err(bad(text, "the deck has one block of unseen cards"));
            }
            s.queue.push_back(take(q, "under the deck")?);
        }
    }
    let read_set = |field: &str,
                    what: &str,
                    take: &mut dyn FnMut(&str, &str) -> Result<Card>|
     -> Result<u64> {
        if field == "-" {
            return Ok(0);
        }
        let mut set = 0u64;
        let mut last: Option<Card> = None;
        for entry in field.split(',') {
            let c = take(entry, what)?;
            if last.is_some_and(|l| l >= c) {
                return Err(bad(
                    text,
                    format!("{what} must list cards in card order (AS AH AD AC 2S …)"),
                ));
            }
            last = Some(c);
            set |= 1 << c;
        }
        Ok(set)
    };
    s.removed = read_set(removed, "the removed cards", &mut take)?;
    s.idle = idle
        .parse()
        .ok()
        .filter(|v: &u16| v.to_string() == idle && *v <= IDLE_TURNS)
        .ok_or_else(|| {
            bad(
                text,
                format!(
                    "the idle field {} must be the turns begun with every card known since \
                     the last pair was removed, 0 to {IDLE_TURNS}",
                    quoted(idle)
                ),
            )
        })?;
    s.unseen = PACK & !seen;
    let n = s.unseen.count_ones() as usize;
    match unseen_count {
        Some(k) if k != n => {
            return Err(bad(
                text,
                format!("the deck says *{k} unseen cards, but {n} cards are not listed elsewhere"),
            ));
        }
        None if n > 0 => {
            return Err(bad(
                text,
                format!("{n} cards are missing: the deck's unseen block (*{n}) is not written"),
            ));
        }
        _ => {}
    }
    read_turn(game, text, turn, &mut s)?;
    check(game, text, &s)?;
    Ok(s)
}

fn read_turn(game: &RepairUnit, text: &str, field: &str, s: &mut RepairState) -> Result<()> {
    let fail = || {
        bad(
            text,
            format!(
                "the turn must be deal, won, lost or <forecast>:<step>[:t][:<effect>] (forecast A \
                 to {}, step start/draw/move/end, effect drawn/peek/a position), not {}",
                (b'A' + game.forecasts() as u8 - 1) as char,
                quoted(field)
            ),
        )
    };
    s.step = match field {
        "deal" => Step::Deal,
        "won" => Step::Won,
        "lost" => Step::Lost,
        _ => {
            let parts: Vec<&str> = field.split(':').collect();
            if parts.len() < 2 || parts.len() > 4 || parts[0].len() != 1 {
                return Err(fail());
            }
            let f = parts[0].as_bytes()[0].wrapping_sub(b'A') as usize;
            if f >= game.forecasts() {
                return Err(fail());
            }
            s.active = f as u8;
            let step = match parts[1] {
                "start" => Step::Start,
                "draw" => Step::Draw,
                "move" => Step::Move,
                "end" => Step::End,
                _ => return Err(fail()),
            };
            let mut rest = &parts[2..];
            if rest.first() == Some(&"t") {
                s.tunnelled = true;
                rest = &rest[1..];
            }
            if let Some(&p) = rest.first() {
                s.pending = match p {
                    "drawn" => Pending::Drawn,
                    "peek" => Pending::Peek,
                    _ => {
                        let i = (0..game.length())
                            .find(|&i| RepairUnit::place_name(f, i) == p)
                            .ok_or_else(fail)?;
                        Pending::Tunnelled(i as u8)
                    }
                };
                if rest.len() > 1 {
                    return Err(fail());
                }
            }
            step
        }
    };
    Ok(())
}

/// What the notation alone does not guarantee.
fn check(game: &RepairUnit, text: &str, s: &RepairState) -> Result<()> {
    let fail = |what: &str| Err(bad(text, what));
    let (fs, len) = (game.forecasts(), game.length());
    let downs: Vec<Card> = (0..fs).flat_map(|f| s.down[f][..len].to_vec()).collect();
    let dealt = downs.iter().take_while(|&&c| c != NONE).count();
    let face_up = (0..fs).any(|f| s.up[f][..len].iter().any(|&c| c != NONE));
    if s.step == Step::Deal {
        if downs[dealt..].iter().any(|&c| c != NONE) {
            return fail("the setup is dealt forecast by forecast, front first");
        }
        if dealt == downs.len() {
            return fail("the setup is dealt: the turn must name the forecast to play");
        }
        if face_up
            || s.target != NONE
            || s.drawn != NONE
            || s.top != NONE
            || !s.queue.is_empty()
            || s.removed != 0
            || s.idle != 0
        {
            return fail("during the deal only face-down setup cards are on the table");
        }
        return Ok(());
    }
    if dealt != downs.len() {
        return fail("every position holds a face-down card once the setup is dealt");
    }
    if s.top != NONE && s.unseen == 0 {
        return fail(
            "a known top card with no unseen card below it is written as the first card under the deck",
        );
    }
    if s.unseen != 0 && s.idle != 0 {
        return fail("idle turns are counted once every card is known: 0 while a card is unseen");
    }
    if s.idle == IDLE_TURNS && s.step != Step::Lost {
        return fail("after the last idle turn the game is lost");
    }
    if (0..13).any(|r| (s.removed >> (4 * r) & 0xF).count_ones() % 2 == 1) {
        return fail("cards are removed in pairs of one rank");
    }
    match s.step {
        Step::Won => {
            if face_up || s.target != NONE || s.drawn != NONE || !game.deck_empty(s) {
                return fail("a won game has an empty deck and no face-up card left");
            }
            return Ok(());
        }
        Step::Lost => {
            if s.target == NONE && s.idle != IDLE_TURNS {
                return fail("a lost game has a target waiting, or ran out of idle turns");
            }
            return Ok(());
        }
        _ => {}
    }
    if s.drawn != NONE && s.step != Step::Move {
        return fail("a drawn card lies beside the forecast only between the draw and the move");
    }
    match s.pending {
        Pending::Drawn if s.drawn == NONE || s.step != Step::Move => {
            return fail("the drawn card's effect needs a drawn card, before the move");
        }
        Pending::Tunnelled(i) if !s.tunnelled || s.up[s.active as usize][i as usize] == NONE => {
            return fail("a tunnelled card's effect needs the tunnel used and the card face up");
        }
        Pending::Peek if s.top != NONE || s.unseen == 0 => {
            return fail("a Jack looks at the top only when it is unseen");
        }
        _ => {}
    }
    if let Some(c) = game.effect_card(s) {
        if ![0, 10, 11, 12].contains(&rank(c)) {
            return fail("only a J, Q, K or A has an effect");
        }
    }
    if s.step == Step::Draw && (s.pending != Pending::None || s.top != NONE || s.unseen == 0) {
        return fail("the draw waits for a card only when the top of the deck is unseen");
    }
    let mut settled = *s;
    game.settle(&mut settled);
    if settled != *s {
        return fail(
            "the turn is not at a decision or a card to come (the team cannot tunnel or use an \
             effect here)",
        );
    }
    Ok(())
}

impl RepairUnit {
    /// The legal actions' strings are documented in docs/rules/repair_unit.md, *Actions*.
    pub(super) fn name(&self, s: &RepairState, action: Action) -> Option<String> {
        let (fs, len) = (self.forecasts(), self.length());
        let a = s.active as usize;
        let pos = |f: usize, i: usize| (f < fs && i < len).then(|| Self::place_name(f, i));
        Some(match action {
            0..52 => code(action as Card),
            GO_ON => "go on".into(),
            53..56 => format!("tunnel {}", pos(a, (action - TUNNEL) as usize)?),
            NO_EFFECT => "no effect".into(),
            PEEK => "peek".into(),
            ACE_UNDER => "ace".into(),
            59..71 => {
                let k = (action - KING_AT) as usize;
                format!("king {}", pos(k / 3, k % 3)?)
            }
            KING_DRAWN => "king drawn".into(),
            KING_TARGET => "king target".into(),
            72..108 => {
                let k = (action - QUEEN_SWAP) as usize;
                let (i, f, j) = (k / 12, k / 3 % 4, k % 3);
                if f == a {
                    return None;
                }
                format!("queen {} {}", pos(a, i)?, pos(f, j)?)
            }
            _ => return None,
        })
    }
}
