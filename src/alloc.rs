//! The allocator of the `flinklint` binary and of its benchmark: mimalloc, through its C API
//! (`libmimalloc-sys`).
//!
//! This file is the only unsafe code of flinklint (the library forbids it): the
//! `GlobalAlloc` contract, and one option of mimalloc set at start. It is included by
//! `src/main.rs` and `benches/throughput.rs`, so the benchmark measures the binary's allocator.

use core::alloc::{GlobalAlloc, Layout};
use core::ffi::{c_int, c_long, c_void};

/// The alignment of every block `mi_malloc` returns, whatever its size: its smallest blocks are
/// one word.
const WORD: usize = core::mem::size_of::<usize>();

/// mimalloc, with its plain entry points for the layouts of (nearly) all allocations: the
/// aligned ones (`mi_malloc_aligned`, which the `mimalloc` crate calls for every layout) take a
/// longer path whenever a page has no free block left.
pub struct Mimalloc;

// SAFETY: each function returns null or a block of at least `layout.size()` bytes aligned to
// `layout.align()`: `mi_malloc`, `mi_zalloc` and `mi_realloc` blocks are aligned to a word, and
// they serve only layouts aligned to a word at most; the `_aligned` functions take the
// alignment. `mi_free` frees any block of either kind.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= WORD {
            libmimalloc_sys::mi_malloc(layout.size()).cast()
        } else {
            libmimalloc_sys::mi_malloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= WORD {
            libmimalloc_sys::mi_zalloc(layout.size()).cast()
        } else {
            libmimalloc_sys::mi_zalloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        libmimalloc_sys::mi_free(ptr.cast::<c_void>());
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= WORD {
            libmimalloc_sys::mi_realloc(ptr.cast::<c_void>(), new_size).cast()
        } else {
            libmimalloc_sys::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align())
                .cast()
        }
    }
}

extern "C" {
    // mimalloc.h: `void mi_option_set(mi_option_t option, long value)`.
    fn mi_option_set(option: c_int, value: c_long);
}

/// `mi_option_purge_delay` in mimalloc.h's `mi_option_e` (mimalloc 3, which `libmimalloc-sys`
/// builds unless its `v2` feature is on): how long freed memory stays before it is returned to
/// the system, in milliseconds; -1 never.
const MI_OPTION_PURGE_DELAY: c_int = 15;

/// Keeps the memory a run frees until the process ends, instead of returning what has been
/// unused for a second to the system (mimalloc's default).
///
/// A run of `check` over a large project checks it chunk by chunk: each chunk frees what it
/// allocated, and the next allocates as much again. Returned pages split the transparent huge
/// pages mimalloc reserves its memory in; the next chunk faults them back a small page at a
/// time (at 100,000 files: about 20,000 page faults and a tenth of the run; none once kept).
/// Peak memory is the same: only what was already allocated once is kept. The language
/// server, which runs for hours, does not call this.
///
/// Call it first thing in `main`, before any other thread starts (mimalloc's options are not
/// thread-safe).
pub fn keep_freed_memory() {
    // SAFETY: sets one integer option of the allocator, before other threads exist.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
}
