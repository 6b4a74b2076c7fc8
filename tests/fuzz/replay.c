/* A main() for a libFuzzer target without libFuzzer: runs LLVMFuzzerTestOneInput once on each
 * file named on the command line (a corpus replayed as a regression test by
 * tests/test_fuzz_corpus.py, with gcc and its sanitizers). Prints "ok N" after N inputs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        uint8_t *buf;
        long size;
        if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0
            || fseek(f, 0, SEEK_SET) != 0) {
            fprintf(stderr, "cannot read %s\n", argv[i]);
            return 2;
        }
        /* an exact-size copy on the heap: a read past the input is a heap overflow ASan sees */
        buf = (uint8_t *)malloc(size > 0 ? (size_t)size : 1);
        if (buf == NULL || fread(buf, 1, (size_t)size, f) != (size_t)size) {
            fprintf(stderr, "cannot read %s\n", argv[i]);
            return 2;
        }
        fclose(f);
        LLVMFuzzerTestOneInput(buf, (size_t)size);
        free(buf);
    }
    printf("ok %d\n", argc - 1);
    return 0;
}
