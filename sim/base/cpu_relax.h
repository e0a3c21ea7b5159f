/* A pause in a loop that waits for another thread. */
#ifndef WARPSIM_CPU_RELAX_H
#define WARPSIM_CPU_RELAX_H

/* Tells the core the loop spins: on x86 `pause`, which lets the core's
 * other hardware thread run and keeps the loop's exit from being a
 * mispredicted flush of memory-order speculation. */
static inline void ws_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

#endif
