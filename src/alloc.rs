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

/// Turns transparent huge pages off for the rest of the process (Linux; nothing elsewhere),
/// until [`huge_pages`]: every `check` starts so.
///
/// mimalloc asks for huge pages (`MADV_HUGEPAGE`) on the memory it reserves, so the first
/// touch of each 2 MiB range clears all of it. A run that checks a few files (a staged file,
/// a folder of a few hundred) touches little memory, and clearing whole huge pages was a fifth
/// of its time (one staged file of a 2,000-file project: median 18.2 ms with them, 16.4 ms
/// without, 25 alternated runs). A large run checks its files chunk by chunk, frees each
/// chunk's memory and takes fresh memory again, and the kernel cleared huge pages for 14 % of
/// the run (at 100,000 files 4,834 ms and 1.87 s of system time with them, 4,432 ms and 1.25 s
/// without). See `docs/performance.md`.
pub fn small_pages() {
    #[cfg(target_os = "linux")]
    {
        // Best effort: a kernel without the setting runs as before.
        let _ = rustix::thread::disable_transparent_huge_pages(true);
    }
}

/// Turns transparent huge pages back on (after [`small_pages`]): for a run that reads and
/// parses enough files at once ([`HUGE_PAGE_FILES`] up to a chunk) to gain from them (2,000
/// files: median 123.8 ms with them, 130.4 ms without; 1,000 files 85.1 against 86.3 ms; at
/// 500 files the same; fewer files are faster without).
pub fn huge_pages() {
    #[cfg(target_os = "linux")]
    {
        let _ = rustix::thread::disable_transparent_huge_pages(false);
    }
}

/// The fewest files a run reads and parses at once (not in chunks) for which it turns huge
/// pages back on ([`huge_pages`]).
pub const HUGE_PAGE_FILES: usize = 500;
