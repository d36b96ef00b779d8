// newdel.cc -- data-profile fixture (tests/data.t): C++ new and delete.
//   new-node    `new Node` in make_node, NODES times: 64-byte nodes whose
//               key is written once and next once: Dw 2 * NODES, then one
//               traversal reads next: Dr NODES
//   new-array   `new long[300]` in main: written once, read twice:
//               Dr 600 Dw 300
// Everything is deleted at the end (delete's own accesses are `other`).
#include <cstdio>

struct Node {
    volatile long key;
    Node *volatile next;
    long pad[6];
};

static const int NODES = 100;

__attribute__((noinline)) static Node *make_node(long key, Node *next)
{
    Node *n = new Node; // MARK: new-node
    n->key = key; // MARK: key-write
    n->next = next; // MARK: next-write
    return n;
}

int main()
{
    Node *head = 0;
    for (int i = 0; i < NODES; i++)
        head = make_node(i, head); // MARK: make-call
    long count = 0;
    for (Node *p = head; p != 0; ) {
        Node *next = p->next; // MARK: next-read
        delete p;
        p = next;
        count++;
    }

    volatile long *arr = new long[300]; // MARK: new-array
    for (int i = 0; i < 300; i++)
        arr[i] = i; // MARK: array-write
    long sum = 0;
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < 300; i++)
            sum += arr[i]; // MARK: array-read
    delete[] arr;
    std::printf("newdel %ld %ld\n", count, sum);
    return 0;
}
