//! What `profile()` shows: the global block and three Theano-style tables
//! (by op kind, by kernel, by source site) as text and as HTML, and the raw
//! records as JSON. Written by hand: the records are flat numbers and
//! strings, and a serde dependency would cost every engineer build time.

use super::recorder::{Agg, State};
use std::fmt::Write;
use std::time::Duration;

/// Rows shown per table (the rest are summed into one line).
const MAX_ROWS: usize = 25;

/// One row of a table: its name and sums.
struct Row {
    name: String,
    agg: Agg,
}

fn rows<T>(names: &[T], aggs: &[Agg], name: impl Fn(&T) -> String) -> Vec<Row> {
    let mut v: Vec<Row> = names
        .iter()
        .zip(aggs)
        .filter(|(_, a)| a.calls > 0)
        .map(|(n, a)| Row {
            name: name(n),
            agg: a.clone(),
        })
        .collect();
    v.sort_by(|a, b| {
        b.agg
            .time_ns()
            .cmp(&a.agg.time_ns())
            .then(b.agg.calls.cmp(&a.agg.calls))
    });
    v
}

/// The three tables: title and rows.
fn tables(st: &State) -> [(&'static str, &'static str, Vec<Row>); 3] {
    [
        (
            "Ops (by op kind)",
            "op kind",
            rows(&st.kinds.names, &st.kind_aggs(), |s| s.clone()),
        ),
        (
            "Kernels (by fused expression, dtype, shapes, device)",
            "kernel",
            rows(&st.kernels.names, &st.kernel_aggs(), |s| s.clone()),
        ),
        (
            "Sites (by source line)",
            "site",
            rows(&st.sites.names, &st.site_aggs(), |s| {
                if s.line == 0 {
                    format!("{} {}", s.file, s.text).trim().to_string()
                } else {
                    format!("{}:{}  {}", s.file, s.line, s.text)
                }
            }),
        ),
    ]
}

/// `1.23 ms`, `45.6 us`.
pub fn fmt_time(ns: f64) -> String {
    if ns <= 0.0 {
        return "0".into();
    }
    let (v, u) = if ns >= 1e9 {
        (ns / 1e9, "s")
    } else if ns >= 1e6 {
        (ns / 1e6, "ms")
    } else if ns >= 1e3 {
        (ns / 1e3, "us")
    } else {
        (ns, "ns")
    };
    format!("{v:.3} {u}")
}

/// `4.0 KB`, `1.5 MB` (powers of 1024).
pub fn fmt_bytes(b: u64) -> String {
    let units = ["B", "KB", "MB", "GB", "TB"];
    let mut v = b as f64;
    let mut i = 0;
    while v >= 1024.0 && i + 1 < units.len() {
        v /= 1024.0;
        i += 1;
    }
    if i == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", units[i])
    }
}

fn gbps(a: &Agg) -> String {
    let t = a.time_ns();
    if a.bytes_moved == 0 || t == 0 {
        "-".into()
    } else {
        format!("{:.2}", a.bytes_moved as f64 / t as f64)
    }
}

/// The global block's lines.
fn global_lines(st: &State) -> Vec<(String, String)> {
    let wall = st.wall().as_nanos() as f64;
    let ops = st.op_time().as_nanos() as f64;
    let interp = (wall - ops).max(0.0);
    let pct = |x: f64| if wall > 0.0 { 100.0 * x / wall } else { 0.0 };
    let dev: u64 = st.kind_aggs().iter().map(|a| a.device_ns).sum();
    let c = &st.counters;
    let mut v = vec![
        ("wall time".into(), fmt_time(wall)),
        (
            "in ops (host)".into(),
            format!(
                "{} ({:.1}%; measured for {} of {} records, the others estimated per kernel and line)",
                fmt_time(ops),
                pct(ops),
                c.host_timed,
                st.records.len() as u64 + st.dropped
            ),
        ),
        (
            "in the interpreter".into(),
            format!("{} ({:.1}%)", fmt_time(interp), pct(interp)),
        ),
        (
            "on devices".into(),
            format!(
                "{} (GPU event times; overlap the host's; sampled: {} of {} launches timed, times scaled per row)",
                fmt_time(dev as f64),
                c.timed_launches,
                c.launches
            ),
        ),
        (
            "launches / syncs".into(),
            format!(
                "{} / {} ({} waiting)",
                c.launches,
                c.syncs,
                fmt_time(c.sync_ns as f64)
            ),
        ),
        (
            "host to device".into(),
            format!(
                "{} in {}",
                fmt_bytes(c.h2d_bytes),
                fmt_time(c.h2d_ns as f64)
            ),
        ),
        (
            "device to host".into(),
            format!(
                "{} in {}",
                fmt_bytes(c.d2h_bytes),
                fmt_time(c.d2h_ns as f64)
            ),
        ),
        (
            "kernel compiles / cache hits".into(),
            format!(
                "{} / {} ({})",
                c.compiles,
                c.cache_hits,
                fmt_time(c.compile_ns as f64)
            ),
        ),
    ];
    let peak = if c.peak.is_empty() {
        "- (no device reported)".to_string()
    } else {
        c.peak
            .iter()
            .map(|(d, b)| format!("{d} {}", fmt_bytes(*b)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    v.push(("peak memory".into(), peak));
    let n = st.records.len() as u64 + st.dropped;
    v.push((
        "records".into(),
        format!("{n} ({} kept raw for profile(file=...))", st.records.len()),
    ));
    v
}

const HEADER: [&str; 7] = [
    "<% time>",
    "<sum %>",
    "<total time>",
    "<time per call>",
    "<#calls>",
    "<GB/s>",
    "<bytes alloc>",
];

/// The cells of a row: % time, cumulative %, total, per call, calls, GB/s, bytes allocated.
fn cells(r: &Row, total: u64, cum: &mut u64) -> [String; 7] {
    let t = r.agg.time_ns();
    *cum += t;
    let pct = |x: u64| {
        if total > 0 {
            100.0 * x as f64 / total as f64
        } else {
            0.0
        }
    };
    [
        format!("{:.1}%", pct(t)),
        format!("{:.1}%", pct(*cum)),
        fmt_time(t as f64),
        fmt_time(t as f64 / r.agg.calls.max(1) as f64),
        r.agg.calls.to_string(),
        gbps(&r.agg),
        fmt_bytes(r.agg.bytes_alloc),
    ]
}

/// The report as text.
pub fn to_text(st: &State) -> String {
    let mut s = String::from("Profile (since profiling began or was last reset)\n");
    for (k, v) in global_lines(st) {
        let _ = writeln!(s, "  {k:<30} {v}");
    }
    let widths = [8, 8, 13, 16, 9, 8, 13];
    for (title, what, rows) in tables(st) {
        let _ = writeln!(s, "\n{title}\n");
        for (h, w) in HEADER.iter().zip(widths) {
            let _ = write!(s, "{h:>w$} ");
        }
        let _ = writeln!(s, " <{what}>");
        let total: u64 = rows.iter().map(|r| r.agg.time_ns()).sum();
        let mut cum = 0;
        for r in rows.iter().take(MAX_ROWS) {
            for (c, w) in cells(r, total, &mut cum).iter().zip(widths) {
                let _ = write!(s, "{c:>w$} ");
            }
            let _ = writeln!(s, " {}", r.name);
        }
        if rows.len() > MAX_ROWS {
            let rest: u64 = rows[MAX_ROWS..].iter().map(|r| r.agg.time_ns()).sum();
            let _ = writeln!(
                s,
                "   ... {} more rows, {} in all",
                rows.len() - MAX_ROWS,
                fmt_time(rest as f64)
            );
        }
        if rows.is_empty() {
            let _ = writeln!(s, "   (no records)");
        }
    }
    s
}

pub(crate) fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The report as HTML (Jupyter).
pub fn to_html(st: &State) -> String {
    let mut s = String::from(
        "<div class=\"gcalc-profile\"><b>Profile</b> (since profiling began or was last reset)\
         <table><tbody>",
    );
    for (k, v) in global_lines(st) {
        let _ = write!(
            s,
            "<tr><th style=\"text-align:left\">{}</th><td style=\"text-align:left\">{}</td></tr>",
            html_escape(&k),
            html_escape(&v)
        );
    }
    s.push_str("</tbody></table>");
    for (title, what, rows) in tables(st) {
        let _ = write!(s, "<h4>{}</h4><table><thead><tr>", html_escape(title));
        for h in HEADER {
            let _ = write!(s, "<th>{}</th>", html_escape(h.trim_matches(['<', '>'])));
        }
        let _ = write!(
            s,
            "<th style=\"text-align:left\">{what}</th></tr></thead><tbody>"
        );
        let total: u64 = rows.iter().map(|r| r.agg.time_ns()).sum();
        let mut cum = 0;
        for r in rows.iter().take(MAX_ROWS) {
            s.push_str("<tr>");
            for c in cells(r, total, &mut cum) {
                let _ = write!(s, "<td>{}</td>", html_escape(&c));
            }
            let _ = write!(
                s,
                "<td style=\"text-align:left\"><code>{}</code></td></tr>",
                html_escape(&r.name)
            );
        }
        s.push_str("</tbody></table>");
        if rows.len() > MAX_ROWS {
            let _ = write!(s, "<p>... {} more rows</p>", rows.len() - MAX_ROWS);
        }
    }
    s.push_str("</div>");
    s
}

fn json_str(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn secs(ns: u64) -> String {
    format!("{:.9}", Duration::from_nanos(ns).as_secs_f64())
}

/// The raw records (and the global block's numbers) as JSON. A record's
/// `device_s` is its measured device time (null when none: a copy or kernel
/// not timed yet, or a call the sampling left untimed, `"timed": false`);
/// the tables' rows scale the measured times (`Agg`), the raw records don't.
pub fn to_json(st: &State) -> String {
    let c = &st.counters;
    let wall = st.wall().as_nanos() as u64;
    let ops = st.op_time().as_nanos() as u64;
    let mut s = String::from("{\n");
    let _ = writeln!(s, "  \"version\": 1,");
    let _ = writeln!(s, "  \"wall_s\": {},", secs(wall));
    let _ = writeln!(s, "  \"op_time_s\": {},", secs(ops));
    let _ = writeln!(
        s,
        "  \"interpreter_s\": {},",
        secs(wall.saturating_sub(ops))
    );
    let _ = writeln!(
        s,
        "  \"counters\": {{\"launches\": {}, \"timed_launches\": {}, \"syncs\": {}, \"sync_s\": {}, \"h2d_bytes\": {}, \"h2d_s\": {}, \"d2h_bytes\": {}, \"d2h_s\": {}, \"d2d_bytes\": {}, \"d2d_s\": {}, \"compiles\": {}, \"compile_s\": {}, \"cache_hits\": {}, \"host_timed\": {}}},",
        c.launches,
        c.timed_launches,
        c.syncs,
        secs(c.sync_ns),
        c.h2d_bytes,
        secs(c.h2d_ns),
        c.d2h_bytes,
        secs(c.d2h_ns),
        c.d2d_bytes,
        secs(c.d2d_ns),
        c.compiles,
        secs(c.compile_ns),
        c.cache_hits,
        c.host_timed
    );
    let peaks: Vec<String> = c
        .peak
        .iter()
        .map(|(d, b)| {
            format!(
                "{{\"device\": {}, \"bytes\": {b}}}",
                json_str(&d.to_string())
            )
        })
        .collect();
    let _ = writeln!(s, "  \"peak_memory\": [{}],", peaks.join(", "));
    let _ = writeln!(s, "  \"dropped_records\": {},", st.dropped);
    s.push_str("  \"records\": [");
    let unknown = String::new();
    let mut first = true;
    for r in st.records.iter() {
        let Some(e) = st.entry(r) else { continue };
        let kind = st.kinds.names.get(e.kind as usize).unwrap_or(&unknown);
        let kernel = st.kernels.names.get(e.kernel as usize).unwrap_or(&unknown);
        let (file, line, text) = match st.sites.names.get(e.site as usize) {
            Some(site) => (site.file.as_str(), site.line, site.text.as_str()),
            None => ("", 0, ""),
        };
        let dev_s = if r.device_ns > 0 {
            secs(r.device_ns)
        } else {
            "null".into()
        };
        let _ = write!(
            s,
            "{}\n    {{\"class\": {}, \"kind\": {}, \"kernel\": {}, \"file\": {}, \"line\": {line}, \"stmt\": {}, \"device\": {}, \"start_s\": {}, \"host_s\": {}, \"host_timed\": {}, \"device_s\": {dev_s}, \"launches\": {}, \"timed\": {}, \"bytes_alloc\": {}, \"bytes_moved\": {}}}",
            if std::mem::take(&mut first) { "" } else { "," },
            json_str(e.class.name()),
            json_str(kind),
            json_str(kernel),
            json_str(file),
            json_str(text),
            json_str(&r.device().to_string()),
            secs(r.start_ns),
            secs(r.host_ns),
            r.host_timed(),
            r.launches(),
            r.timed(),
            st.bytes_alloc(r),
            st.bytes_moved(r)
        );
    }
    s.push_str("\n  ]\n}\n");
    s
}
