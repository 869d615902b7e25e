//! The binary's allocator: mimalloc for the interpreter's many small,
//! short-lived buffers (array views, fused programs, gradient trees: faster
//! than glibc malloc, bench/NOTES.md, logreg), and the C library's malloc for
//! blocks of 32 MiB and more (array data), which glibc maps on their own and
//! unmaps when they are freed: freeing a large array gives its memory back to
//! the host at once (mimalloc keeps freed segments until later allocator
//! activity, so an idle kernel kept gigabytes after `x = none`), and no
//! allocator arena reserves address space under `ulimit -v` for them.

use std::alloc::{GlobalAlloc, Layout};

/// Blocks at least this large go to the C library (glibc's largest mmap threshold).
const LARGE: usize = 32 << 20;

pub struct Split;

fn large(layout: &Layout) -> bool {
    layout.size() >= LARGE && layout.align() <= 16
}

// SAFETY: each block is freed or resized by the allocator that made it: the
// choice depends only on the layout's size and alignment, which Rust passes
// unchanged to `dealloc`; `realloc` across the threshold allocates on the
// other side, copies and frees the old block.
unsafe impl GlobalAlloc for Split {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if large(&layout) {
            unsafe { libc::malloc(layout.size()).cast() }
        } else {
            unsafe { mimalloc::MiMalloc.alloc(layout) }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if large(&layout) {
            unsafe { libc::calloc(1, layout.size()).cast() }
        } else {
            unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if large(&layout) {
            unsafe { libc::free(ptr.cast()) }
        } else {
            unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees new_size with this alignment is a valid layout.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (large(&layout), large(&new)) {
            (true, true) => unsafe { libc::realloc(ptr.cast(), new_size).cast() },
            (false, false) => unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) },
            _ => {
                let out = unsafe { self.alloc(new) };
                if !out.is_null() {
                    unsafe {
                        std::ptr::copy_nonoverlapping(ptr, out, layout.size().min(new_size));
                        self.dealloc(ptr, layout);
                    }
                }
                out
            }
        }
    }
}
