/* A stand-in for <windows.h> in tests/test_c_portability.py: the declarations csrc/ uses. */
#ifndef HD_TEST_WINDOWS_H
#define HD_TEST_WINDOWS_H
typedef union {
    struct { unsigned long LowPart; long HighPart; } u;
    long long QuadPart;
} LARGE_INTEGER;
int QueryPerformanceCounter(LARGE_INTEGER *count);
int QueryPerformanceFrequency(LARGE_INTEGER *frequency);
int SwitchToThread(void);
#endif
