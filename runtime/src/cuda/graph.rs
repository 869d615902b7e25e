//! A loop body's GPU work as a CUDA graph: the interpreter (`interp/loop_graph.rs`)
//! captures one iteration's launches from the device's stream and replays
//! the graph for the iterations left, so a training loop pays one
//! cuGraphLaunch per iteration instead of the interpreter and a launch per op.
//!
//! # Invariants
//! - Capture is stream capture of the device's one stream in relaxed mode:
//!   whatever an iteration queues there (gcalc's kernels, cuBLAS, memsets,
//!   device copies) is recorded in order and nothing runs until `launch`.
//! - While a loop graph is being made or replayed the device's block cache
//!   holds every freed block (`BlockCache::hold`), so the captured iteration
//!   allocates nothing from the pool and every address the graph uses stays
//!   owned by gcalc (live in a variable, or cached and taken by no one while
//!   the graph replays). `Hold`'s drop ends the hold and frees the excess.
//! - `Gpu::host_events` counts what a graph cannot hold (syncs, host copies,
//!   pool calls): the interpreter only captures an iteration after a plain
//!   one did none of it, and checks the captured one did none either.

use super::driver::Gpu;
use crate::error::{Error, Result};
use cudarc::driver::{result, sys};
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// The cache holds every freed block on this GPU until dropped.
pub struct Hold(Arc<Gpu>);

impl Hold {
    pub fn new(g: &Arc<Gpu>) -> Hold {
        g.cache.hold();
        Hold(g.clone())
    }
}

impl Drop for Hold {
    fn drop(&mut self) {
        let g = &self.0;
        let extra = g.cache.release();
        if g.is_poisoned() || g.bind().is_err() {
            return;
        }
        for p in extra {
            g.note_host_event();
            // SAFETY: p is a block of this GPU's pool that nothing uses
            // (it was in the cache); the free is ordered on its stream.
            let _ = unsafe { result::free_async(p, g.stream) };
        }
    }
}

/// Start recording `g`'s stream instead of running what is queued on it.
pub fn begin_capture(g: &Gpu) -> Result<()> {
    g.bind()?;
    // SAFETY: the stream is this GPU's own, valid while `g` lives.
    unsafe {
        result::stream::begin_capture(
            g.stream,
            sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_RELAXED,
        )
    }
    .map_err(|e| g.err(e, "starting to record a loop body"))
}

/// Stop recording: the recorded work, ready to launch (`None` when nothing
/// was queued).
pub fn end_capture(g: &Arc<Gpu>) -> Result<Option<LoopGraph>> {
    // SAFETY: the stream is capturing (begin_capture succeeded).
    let graph = unsafe { result::stream::end_capture(g.stream) }
        .map_err(|e| g.err(e, "finishing the record of a loop body"))?;
    if graph.is_null() {
        return Ok(None);
    }
    let mut nodes = 0usize;
    // SAFETY: graph is the valid graph just captured; a null node array asks
    // only for the count.
    unsafe { sys::cuGraphGetNodes(graph, std::ptr::null_mut(), &mut nodes) }
        .result()
        .map_err(|e| g.err(e, "reading a loop body's graph"))?;
    // SAFETY: graph is valid; it is destroyed once instantiated (the
    // executable graph keeps what it needs).
    let exec = unsafe { result::graph::instantiate(graph, sys::CUgraphInstantiate_flags(0)) };
    unsafe {
        let _ = result::graph::destroy(graph);
    }
    let exec = exec.map_err(|e| g.err(e, "preparing a loop body's graph"))?;
    Ok(Some(LoopGraph {
        g: g.clone(),
        exec,
        nodes: nodes as u64,
    }))
}

/// Whether `g`'s stream is recording (a capture left open by an error).
pub fn is_capturing(g: &Gpu) -> bool {
    // SAFETY: the stream is this GPU's own.
    unsafe { result::stream::is_capturing(g.stream) }
        .is_ok_and(|s| s != sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE)
}

/// One iteration's recorded GPU work, launched as a whole.
pub struct LoopGraph {
    g: Arc<Gpu>,
    exec: sys::CUgraphExec,
    /// Operations in the graph (counted as launches each replay).
    nodes: u64,
}

// SAFETY: an executable graph may be launched from any thread with the
// context bound, which `launch` does.
unsafe impl Send for LoopGraph {}

impl LoopGraph {
    /// Queue the recorded work once more on the GPU's stream.
    pub fn launch(&self) -> Result<()> {
        let g = &self.g;
        g.bind()?;
        // SAFETY: exec is a valid executable graph of this context.
        unsafe { result::graph::launch(self.exec, g.stream) }
            .map_err(|e| g.err(e, "replaying a loop body's graph"))?;
        g.launches.fetch_add(self.nodes, Ordering::Relaxed);
        g.note_launch_text();
        Ok(())
    }

    /// Operations recorded.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

impl Drop for LoopGraph {
    fn drop(&mut self) {
        // An executable graph still running is freed when it completes.
        // SAFETY: exec is valid and dropped once.
        unsafe {
            let _ = result::graph::exec_destroy(self.exec);
        }
    }
}

/// Why a captured loop body cannot be replayed, as an error for the user
/// (the capture failed in a way the plain iteration before it did not).
pub fn capture_failed(why: &str) -> Error {
    Error::device(format!(
        "a loop body recorded as a CUDA graph did something the iteration before it did not ({why})"
    ))
    .with_help("run the loop with `set loop_graphs = false` and report this")
}
