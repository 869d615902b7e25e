//! The profiler's hot paths as the backends see them: `is_on()` follows
//! `set profile` without taking the recorder's lock, a sync point's device
//! times arrive in one batch (`kernel_times`) and land on the ops that
//! launched them, and times of launches queued before a reset are dropped.

use gcalc_runtime::Device;
use gcalc_runtime::profile::{self, Class};
use std::time::Duration;

use crate::profile_util::{run, session};

#[test]
fn is_on_follows_set_profile() {
    let mut s = session(false);
    let prof = s.interp().profiler.clone();
    {
        let _g = profile::enter(&prof);
        assert!(!profile::is_on(), "off at start");
    }
    run(&mut s, "set profile = true", "on");
    {
        let _g = profile::enter(&prof);
        assert!(profile::is_on(), "on after `set profile = true`");
        assert!(prof.is_on() && prof.lock().is_on());
    }
    run(&mut s, "set profile = false", "off");
    let _g = profile::enter(&prof);
    assert!(!profile::is_on(), "off again");
    assert!(profile::launch(Device::Gpu(0)).is_none(), "nothing counted");
    drop(_g);
    assert_eq!(prof.lock().counters.launches, 0);
}

#[test]
fn a_sync_points_device_times_arrive_in_one_batch() {
    let mut s = session(true);
    let prof = s.interp().profiler.clone();
    let _g = profile::enter(&prof);
    let g = Device::Gpu(0);
    // Two ops, each launching once; a sync point reads both pairs at once.
    let mut launches = Vec::new();
    for (name, key) in [("exp", 50u64), ("sum", 60)] {
        let tok = {
            let mut st = prof.lock();
            let k = st.kinds.intern(key, || name.into());
            let kn = st.kernels.intern(key + 1, || format!("{name} gpu(0)"));
            let site = st.current_site();
            let e = st.add_entry(kn as u64, Class::Op, k, kn, site);
            st.begin(e, g, 40)
        };
        launches.push(profile::launch(g).expect("a launch inside an op"));
        prof.lock().end(tok, 40, None);
    }
    let times: Vec<_> = launches
        .iter()
        .zip([Duration::from_micros(30), Duration::from_micros(70)])
        .map(|(&t, d)| (t, d))
        .collect();
    profile::kernel_times(&times);
    {
        let st = prof.lock();
        assert_eq!(st.counters.launches, 2);
        assert_eq!(st.records.get(0).unwrap().device_ns, 30_000);
        assert_eq!(st.records.get(1).unwrap().device_ns, 70_000);
        let by_name = |n: &str| {
            let i = st.kinds.names.iter().position(|x| x == n).unwrap();
            st.kind_aggs()[i].time_ns()
        };
        assert_eq!((by_name("exp"), by_name("sum")), (30_000, 70_000));
    }
    // Launches queued before a reset: their times are dropped, not misfiled.
    prof.lock().reset();
    profile::kernel_times(&times);
    let st = prof.lock();
    assert!(st.records.is_empty());
    assert!(st.kind_aggs().iter().all(|a| a.device_ns == 0));
}

/// `calls` calls of one op kind/kernel row, each launching `per_call` kernels;
/// the timed launches (`LaunchToken::timed`) get `time(call, launch)`, the
/// others a wild time that must be ignored. Returns the row's index.
fn sampled_calls(
    prof: &profile::Profiler,
    key: u64,
    calls: u64,
    per_call: u64,
    time: impl Fn(u64, u64) -> Duration,
) -> usize {
    let g = Device::Gpu(0);
    let mut times = Vec::new();
    for c in 0..calls {
        let tok = {
            let mut st = prof.lock();
            let k = st.kinds.intern(key, || format!("op{key}"));
            let kn = st.kernels.intern(key + 1, || format!("op{key} gpu(0)"));
            let site = st.current_site();
            let e = st.add_entry(kn as u64, Class::Op, k, kn, site);
            st.begin(e, g, 0)
        };
        for l in 0..per_call {
            let t = profile::launch(g).expect("a launch inside an op");
            let d = if t.timed() {
                time(c, l)
            } else {
                Duration::from_secs(1)
            };
            times.push((t, d));
        }
        prof.lock().end(tok, 0, None);
    }
    profile::kernel_times(&times);
    let st = prof.lock();
    st.kinds
        .names
        .iter()
        .position(|n| *n == format!("op{key}"))
        .unwrap()
}

#[test]
fn the_sampling_rule_times_the_first_calls_then_one_in_n() {
    use profile::recorder::{SAMPLE_EVERY, SAMPLE_FIRST, sample_weight};
    assert_eq!((SAMPLE_FIRST, SAMPLE_EVERY), (4, 16));
    let w: Vec<u64> = (0..40).map(sample_weight).collect();
    assert_eq!(&w[..4], &[1, 1, 1, 1]);
    assert!(w[4..19].iter().all(|&x| x == 0), "{w:?}");
    assert_eq!((w[19], w[35]), (16, 16));
    // Every call up to the end of a block is stood for exactly once.
    for blocks in 0..5 {
        let n = SAMPLE_FIRST + blocks * SAMPLE_EVERY;
        assert_eq!((0..n).map(sample_weight).sum::<u64>(), n);
    }
}

#[test]
fn an_outlier_host_sample_stands_for_its_block_at_most_twice_the_mean() {
    use profile::recorder::{Agg, STAND_IN_MAX_FACTOR, STAND_IN_SLACK_NS};
    let mut a = Agg::default();
    for _ in 0..4 {
        a.add_host_sample(100, 1);
    }
    assert_eq!(a.host_mean_ns, 100);
    // A steady sample stands for its block as it is.
    a.add_host_sample(120, 16);
    assert_eq!(a.host_sampled_ns, 400 + 16 * 120);
    // A preempted one (5 ms) counts once as itself, 15 times as the cap.
    let mean = a.host_mean_ns;
    let (ns, w) = (a.host_sampled_ns, a.host_sampled_w);
    a.add_host_sample(5_000_000, 16);
    let cap = mean * STAND_IN_MAX_FACTOR + STAND_IN_SLACK_NS;
    assert_eq!(a.host_sampled_ns, ns + 5_000_000 + 15 * cap);
    assert_eq!(a.host_mean_ns, a.host_sampled_ns / (w + 16));
    assert!(a.host_mean_ns < 200_000, "{}", a.host_mean_ns);
}

#[test]
fn sampled_device_times_are_scaled_per_row() {
    let mut s = session(true);
    let prof = s.interp().profiler.clone();
    let _g = profile::enter(&prof);
    // 100 calls of two launches (10 us and 30 us): calls 0-3 and 19, 35, 51,
    // 67, 83, 99 are timed (10 calls, 20 launches); the row's device time is
    // the full 100 * 40 us, each record keeps what was measured.
    let us = Duration::from_micros;
    let i = sampled_calls(&prof, 70, 100, 2, |_, l| us(if l == 0 { 10 } else { 30 }));
    let st = prof.lock();
    assert_eq!(
        (st.counters.launches, st.counters.timed_launches),
        (200, 20)
    );
    let a = &st.kind_aggs()[i];
    assert_eq!((a.calls, a.launches, a.timed_launches), (100, 200, 20));
    assert_eq!(a.device_ns, 4_000_000);
    assert_eq!(a.time_ns(), 4_000_000, "device time replaces host time");
    assert_eq!(st.kernel_aggs()[i].device_ns, 4_000_000);
    let rec = |n: usize| st.records.get(n).unwrap();
    assert_eq!(
        (rec(0).launches(), rec(0).timed(), rec(0).device_ns),
        (2, true, 40_000)
    );
    assert_eq!(
        (rec(4).launches(), rec(4).timed(), rec(4).device_ns),
        (2, false, 0)
    );
    assert_eq!(
        (rec(19).timed(), rec(19).device_ns),
        (true, 40_000),
        "measured, not scaled"
    );
    let text = profile::to_text(&st);
    assert!(
        text.contains("sampled: 20 of 200 launches timed, times scaled per row"),
        "{text}"
    );
    let json = profile::to_json(&st);
    assert!(json.contains("\"timed_launches\": 20"), "{json}");
    assert!(
        json.contains("\"launches\": 2, \"timed\": false") && json.contains("\"timed\": true"),
        "{json}"
    );
}

#[test]
fn sampling_weights_slow_first_calls_by_what_they_stand_for() {
    let mut s = session(true);
    let prof = s.interp().profiler.clone();
    let _g = profile::enter(&prof);
    let us = Duration::from_micros;
    // First 4 calls slow (100 us), then 10 us: 4 * 100 + 96 * 10 = 1360 us,
    // not 100 * the timed mean.
    let i = sampled_calls(&prof, 80, 100, 1, |c, _| us(if c < 4 { 100 } else { 10 }));
    // 21 calls of 10 us: the 21st (not timed, after the block) is estimated.
    let j = sampled_calls(&prof, 90, 21, 1, |_, _| us(10));
    let st = prof.lock();
    assert_eq!(st.kind_aggs()[i].device_ns, 1_360_000);
    assert_eq!(st.kind_aggs()[j].device_ns, 210_000);
    assert_eq!(st.kind_aggs()[j].timed_launches, 5);
}

#[test]
fn a_row_without_a_timed_launch_keeps_its_host_time() {
    let mut s = session(true);
    let prof = s.interp().profiler.clone();
    let _g = profile::enter(&prof);
    // Launches whose times never arrive (no sync yet): no device time, not zero time.
    let g = Device::Gpu(0);
    let tok = {
        let mut st = prof.lock();
        let k = st.kinds.intern(95, || "pending".into());
        let kn = st.kernels.intern(96, || "pending gpu(0)".into());
        let site = st.current_site();
        let e = st.add_entry(kn as u64, Class::Op, k, kn, site);
        st.begin(e, g, 0)
    };
    assert!(profile::launch(g).expect("a token").timed());
    std::thread::sleep(Duration::from_millis(1));
    prof.lock().end(tok, 0, None);
    let st = prof.lock();
    let a = &st.kind_aggs()[0];
    assert_eq!((a.launches, a.device_ns), (1, 0));
    assert!(a.host_ns >= 1_000_000 && a.time_ns() == a.host_ns, "{a:?}");
    assert!(st.records.get(0).unwrap().timed());
}

#[test]
fn the_row_estimate_does_not_overflow() {
    use profile::recorder::Agg;
    let mut a = Agg {
        launches: 8,
        sampled_ns: u64::MAX / 4,
        sampled_w: 4,
        ..Agg::default()
    };
    a.refresh();
    assert_eq!(a.device_ns, u64::MAX / 4 * 2, "through u128");
    assert_eq!(Agg::default().kernel_estimate_ns(), None);
}
