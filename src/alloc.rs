//! The allocator of the `flinklint` binary and of its benchmark: mimalloc, through its C API
//! (`libmimalloc-sys`).
//!
//! This file is the only unsafe code of flinklint (the library forbids it): the
//! `GlobalAlloc` contract. It is included by
//! `src/main.rs` and `benches/throughput.rs`, so the benchmark measures the binary's allocator.

use core::alloc::{GlobalAlloc, Layout};
use core::ffi::c_void;

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
