//! RFC 3339 timestamps in both flavours the API emits: Kubernetes whole seconds
//! (`2026-03-02T10:15:00Z`) and Go `time.Time` with fractions or offsets.

/// Parses a Go duration (`1m`, `10m0s`, `1h30m`, `500ms`, `1.5h`) into milliseconds (a
/// fraction of a millisecond dropped).
pub fn parse_duration_ms(s: &str) -> Option<i64> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    // In billionths of a millisecond, integers only: `str::parse::<f64>` links the float
    // parser's 10 KB table of powers into the first view's module (#51).
    let mut total: i128 = 0;
    let mut rest = s;
    while !rest.is_empty() {
        let digits = rest
            .find(|ch: char| !(ch.is_ascii_digit() || ch == '.'))
            .unwrap_or(rest.len());
        let number = decimal_billionths(&rest[..digits])?;
        rest = &rest[digits..];
        let unit_len = rest
            .find(|ch: char| ch.is_ascii_digit() || ch == '.')
            .unwrap_or(rest.len());
        let factor: i128 = match &rest[..unit_len] {
            "ms" => 1,
            "s" => 1_000,
            "m" => 60_000,
            "h" => 3_600_000,
            _ => return None,
        };
        total = total.checked_add(number.checked_mul(factor)?)?;
        rest = &rest[unit_len..];
    }
    i64::try_from(total / BILLION).ok()
}

const BILLION: i128 = 1_000_000_000;

/// `12.5` as 12_500_000_000: digits with at most one point and at least one digit (`1.`,
/// `.5`); digits past the ninth decimal are dropped.
fn decimal_billionths(text: &str) -> Option<i128> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty() && fraction.is_empty() || fraction.contains('.') {
        return None;
    }
    let mut value: i128 = 0;
    for d in whole.bytes() {
        value = value.checked_mul(10)?.checked_add(i128::from(d - b'0'))?;
    }
    let mut scale = BILLION;
    value = value.checked_mul(BILLION)?;
    for d in fraction.bytes().take(9) {
        scale /= 10;
        value += i128::from(d - b'0') * scale;
    }
    Some(value)
}

/// Parses an RFC 3339 timestamp into Unix milliseconds; `None` when malformed.
pub fn parse_rfc3339_ms(s: &str) -> Option<i64> {
    let b = s.trim().as_bytes();
    if b.len() < 20 {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let part = b.get(r)?;
        if part.iter().all(u8::is_ascii_digit) {
            std::str::from_utf8(part).ok()?.parse().ok()
        } else {
            None
        }
    };
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, se) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if b[4] != b'-'
        || b[7] != b'-'
        || !matches!(b[10], b'T' | b't' | b' ')
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || se > 60 {
        return None;
    }
    let mut i = 19;
    let mut millis = 0i64;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return None;
        }
        let frac = &b[start..i.min(start + 3)];
        let mut m = 0i64;
        for (k, c) in frac.iter().enumerate() {
            m += i64::from(c - b'0') * [100, 10, 1][k];
        }
        millis = m;
    }
    let offset_min = match b.get(i)? {
        b'Z' | b'z' if i + 1 == b.len() => 0,
        sign @ (b'+' | b'-') if i + 6 == b.len() && b[i + 3] == b':' => {
            let oh = num(i + 1..i + 3)?;
            let om = num(i + 4..i + 6)?;
            let v = oh * 60 + om;
            if *sign == b'+' { v } else { -v }
        }
        _ => return None,
    };
    let days = days_from_civil(y, mo, d);
    let secs = days * 86_400 + h * 3600 + mi * 60 + se - offset_min * 60;
    Some(secs * 1000 + millis)
}

/// Formats Unix milliseconds as `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds).
pub fn format_rfc3339(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// A time as the page shows it, in UTC and saying so (the cluster's events, logs and exports are
/// in UTC; a local time without a zone beside them misleads on-call staff): `13:42:22 UTC` on
/// the same UTC day as `now_ms`, with the date before it otherwise.
pub fn shown(ms: i64, now_ms: i64) -> String {
    let same_day = ms.div_euclid(86_400_000) == now_ms.div_euclid(86_400_000);
    match same_day {
        true => format!("{} UTC", &format_rfc3339(ms)[11..19]),
        false => shown_dated(ms),
    }
}

/// A time with its date, in UTC: `2026-12-01 14:02:11 UTC` (when a snapshot was captured).
pub fn shown_dated(ms: i64) -> String {
    let iso = format_rfc3339(ms);
    format!("{} {} UTC", &iso[..10], &iso[11..19])
}

// Howard Hinnant's days-from-civil algorithm: exact for the proleptic Gregorian calendar.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (
        if m <= 2 {
            yoe + era * 400 + 1
        } else {
            yoe + era * 400
        },
        m,
        d,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_durations_in_milliseconds() {
        for (text, ms) in [
            ("1m", Some(60_000)),
            ("10m0s", Some(600_000)),
            ("1h30m", Some(5_400_000)),
            ("500ms", Some(500)),
            ("1.5h", Some(5_400_000)),
            (".5s", Some(500)),
            ("1.s", Some(1_000)),
            ("0.001ms", Some(0)),
            ("1.0000001s", Some(1_000)),
            (" 2m ", Some(120_000)),
            ("", None),
            ("5", None),
            ("h", None),
            (".s", None),
            ("1..5s", None),
            ("1.5.2s", None),
            ("-1m", None),
            ("1us", None),
            ("99999999999999999999999999999999999999h", None),
        ] {
            assert_eq!(parse_duration_ms(text), ms, "{text:?}");
        }
    }

    #[test]
    fn parses_both_flavours_and_offsets() {
        let whole = parse_rfc3339_ms("2026-03-02T10:15:00Z").unwrap();
        assert_eq!(parse_rfc3339_ms("2026-03-02T10:15:00.000Z"), Some(whole));
        assert_eq!(
            parse_rfc3339_ms("2026-03-02T10:15:00.123456789Z"),
            Some(whole + 123)
        );
        assert_eq!(parse_rfc3339_ms("2026-03-02T11:15:00+01:00"), Some(whole));
        assert_eq!(parse_rfc3339_ms("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(format_rfc3339(whole), "2026-03-02T10:15:00Z");
    }

    #[test]
    fn rejects_garbage() {
        for s in [
            "",
            "yesterday",
            "2026-13-02T10:15:00Z",
            "2026-03-02T10:15:00",
            "2026-03-02T10:15:00.Z",
            "2026-03-02T10:15:00Zjunk",
        ] {
            assert_eq!(parse_rfc3339_ms(s), None, "{s}");
        }
    }

    #[test]
    fn shown_times_say_their_zone_and_their_day_when_not_today() {
        let t = parse_rfc3339_ms("2026-12-04T13:42:22Z").unwrap();
        let later_today = parse_rfc3339_ms("2026-12-04T23:59:59Z").unwrap();
        let next_day = parse_rfc3339_ms("2026-12-05T00:00:01Z").unwrap();
        assert_eq!(shown(t, later_today), "13:42:22 UTC");
        assert_eq!(shown(t, next_day), "2026-12-04 13:42:22 UTC");
        assert_eq!(shown_dated(t), "2026-12-04 13:42:22 UTC");
    }
}
