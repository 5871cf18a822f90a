//! Two memory hints for the mate search's transposition table, the only place where the table
//! size (gigabytes, read at random) makes memory latency the bottleneck.
//!
//! Both need `unsafe`: a prefetch instruction and the `madvise` system call have no safe
//! wrapper in the standard library. Neither can change what the program computes: a prefetch
//! only loads a cache line early, and the advice only asks the kernel for 2 MiB pages.

/// Asks the processor to bring the cache line of `r` into the cache.
#[inline(always)]
pub fn prefetch<T>(r: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` reads nothing and writes nothing; it only hints the cache, and the
    // pointer comes from a live reference. SSE is part of every x86_64 target.
    #[allow(unsafe_code)]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            r as *const T as *const i8,
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = r;
}

/// Asks the kernel to back the `len` bytes at address `start` (an allocation the caller owns)
/// with huge pages, for fewer TLB misses on random access. Best made before the memory is first
/// touched. Ignored where the kernel or platform does not offer them.
pub fn advise_huge_pages(start: usize, len: usize) {
    #[cfg(target_os = "linux")]
    {
        if len < 4 << 20 {
            return;
        }
        // The advice applies to whole pages: round the start up to a 2 MiB boundary.
        let aligned = (start + (2 << 20) - 1) & !((2 << 20) - 1);
        let end = start + len;
        if aligned >= end {
            return;
        }
        // SAFETY: the range lies inside an allocation the caller owns; MADV_HUGEPAGE does not
        // change its contents or validity, and a failure is harmless (the result is ignored).
        #[allow(unsafe_code)]
        unsafe {
            libc::madvise(
                aligned as *mut libc::c_void,
                end - aligned,
                libc::MADV_HUGEPAGE,
            );
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, len);
}
