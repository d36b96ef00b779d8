/* list.c -- data-profile fixture (tests/data.t): a linked list of 64-byte
 * nodes whose `next` field misses in D1 and whose `key` does not.
 *
 * NODES nodes (80 bytes apart: malloc's chunks), far more than a 32 KiB
 * D1 holds, are built once, then traversed PASSES times reading only
 * `next` (offset 8), then once more reading `next` and then `key` (offset
 * 0) of each node.  Counts by construction, for the one object of
 * new_node's site:
 *   field 0 (key):   Dw NODES, Dr NODES
 *                    (D1mr 0: each key is read right after its node's
 *                    `next`, in the same 64-byte line: the chunks are
 *                    16-byte aligned)
 *   field 8 (next):  Dw NODES, Dr (PASSES+1) * NODES
 *                    (D1mr about (PASSES+1) * NODES: every node's line is
 *                    evicted between two passes)
 *   the padding is never touched. */
#include <stdio.h>
#include <stdlib.h>

#define NODES  4096
#define PASSES 8

struct node {
    volatile long key;            /* offset 0 */
    struct node *volatile next;   /* offset 8 */
    long pad[6];                  /* 64 bytes in all */
};

__attribute__((noinline, noclone)) static struct node *new_node(void)
{
    struct node *n = malloc(sizeof *n); /* MARK: node-malloc */
    if (n == NULL)
        abort();
    return n;
}

int main(void)
{
    struct node *head = NULL, *p;
    long sum = 0, count = 0;
    int i, r;

    for (i = 0; i < NODES; i++) {
        struct node *n = new_node(); /* MARK: node-call */
        n->key = i; /* MARK: key-write */
        n->next = head; /* MARK: next-write */
        head = n;
    }
    for (r = 0; r < PASSES; r++)
        for (p = head; p != NULL; ) {
            p = p->next; /* MARK: next-read */
            count++;
        }
    for (p = head; p != NULL; ) {
        struct node *n = p->next; /* MARK: next-read-2 */
        sum += p->key; /* MARK: key-read */
        p = n;
    }
    printf("list %ld %ld\n", count, sum);
    return 0;
}
