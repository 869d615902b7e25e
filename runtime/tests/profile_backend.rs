//! The profiler's hot paths as the backends see them: `is_on()` follows
//! `set profile` without taking the recorder's lock, a sync point's device
//! times arrive in one batch (`kernel_times`) and land on the ops that
//! launched them, and times of launches queued before a reset are dropped.

use gcalc_runtime::Device;
use gcalc_runtime::profile::{self, Class};
use std::time::Duration;

mod profile_util;
use profile_util::{run, session};

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
            st.begin(Class::Op, k, kn, site, g, 40)
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
            st.kinds.aggs[i].time_ns()
        };
        assert_eq!((by_name("exp"), by_name("sum")), (30_000, 70_000));
    }
    // Launches queued before a reset: their times are dropped, not misfiled.
    prof.lock().reset();
    profile::kernel_times(&times);
    let st = prof.lock();
    assert!(st.records.is_empty());
    assert!(st.kinds.aggs.iter().all(|a| a.device_ns == 0));
}
