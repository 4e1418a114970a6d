/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * burnserver: a small CPU-heavy HTTP/1.0 server on loopback, for measuring
 * what a placement does to a service's throughput (docs/results.md). Each
 * request costs a fixed amount of CPU work, then gets a short text answer
 * and the connection is closed, as with a non-persistent client such as
 * ab(1) without -k.
 *
 *   burnserver [-w WORKERS] [-f] [-n ITERATIONS] PORT
 *
 *   -w WORKERS     pre-forked processes that accept() on the shared socket,
 *                  as nginx's workers do (default 2)
 *   -f             instead, fork one process per connection, as a classic
 *                  forking server does
 *   -n ITERATIONS  the work per request: rounds of a xorshift generator
 *                  (default 2000000, about 4 ms of a Zen 3 core under
 *                  KVM)
 *
 * It listens on 127.0.0.1:PORT only. SIGINT or SIGTERM stops it: the
 * master stops its workers, waits for them and exits with status 0.
 */
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_WORKERS 256

static volatile sig_atomic_t stopping;

static void on_stop(int sig)
{
	(void)sig;
	stopping = 1;
}

static uint64_t burn(uint64_t x, long rounds)
{
	x |= 1;
	for (long i = 0; i < rounds; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}

/* Read the request head (up to the blank line, or 8 KiB), do the work,
 * answer. A connection closed before any request (a readiness probe) gets
 * nothing. */
static void serve(int fd, long rounds)
{
	char req[8192], body[64], head[256];
	size_t got = 0;
	ssize_t n;
	int hlen, blen;

	while (got < sizeof(req) - 1) {
		n = read(fd, req + got, sizeof(req) - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
		req[got] = '\0';
		if (strstr(req, "\r\n\r\n") || strstr(req, "\n\n"))
			break;
	}
	if (got == 0)
		return;
	blen = snprintf(
	    body, sizeof(body), "%016llx\n",
	    (unsigned long long)burn((uint64_t)got * 2654435761u, rounds));
	hlen = snprintf(head, sizeof(head),
			"HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n"
			"Content-Length: %d\r\nConnection: close\r\n\r\n",
			blen);
	/* MSG_NOSIGNAL: a client that went away (ab -t stops with requests
	 * in flight) must not kill the worker with SIGPIPE. */
	if (send(fd, head, (size_t)hlen, MSG_NOSIGNAL) == hlen)
		(void)!send(fd, body, (size_t)blen, MSG_NOSIGNAL);
}

static void worker(int lfd, long rounds)
{
	while (!stopping) {
		int fd = accept(lfd, NULL, NULL);

		if (fd < 0)
			continue;
		serve(fd, rounds);
		close(fd);
	}
	_exit(0);
}

static int listen_on(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(fd, 1024) < 0)
		return -1;
	return fd;
}

static void usage(void)
{
	fprintf(stderr, "usage: burnserver [-w WORKERS] [-f] [-n ITERATIONS] "
			"PORT\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int workers = 2, forking = 0, opt, port, lfd, nkids = 0;
	long rounds = 2000000;
	pid_t kids[MAX_WORKERS];
	struct sigaction sa = { .sa_handler = on_stop };

	while ((opt = getopt(argc, argv, "w:fn:")) != -1) {
		switch (opt) {
		case 'w':
			workers = atoi(optarg);
			break;
		case 'f':
			forking = 1;
			break;
		case 'n':
			rounds = atol(optarg);
			break;
		default:
			usage();
		}
	}
	if (optind + 1 != argc || workers < 1 || workers > MAX_WORKERS ||
	    rounds < 0)
		usage();
	port = atoi(argv[optind]);
	/* No SA_RESTART: a signal interrupts accept() and waitpid(). */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	lfd = listen_on(port);
	if (lfd < 0) {
		fprintf(stderr,
			"burnserver: cannot listen on 127.0.0.1:%d: "
			"%s\n",
			port, strerror(errno));
		return 1;
	}
	if (forking) {
		while (!stopping) {
			int fd = accept(lfd, NULL, NULL);

			while (waitpid(-1, NULL, WNOHANG) > 0)
				;
			if (fd < 0)
				continue;
			if (fork() == 0) {
				close(lfd);
				serve(fd, rounds);
				_exit(0);
			}
			close(fd);
		}
	} else {
		for (; nkids < workers; nkids++) {
			kids[nkids] = fork();
			if (kids[nkids] == 0)
				worker(lfd, rounds);
			if (kids[nkids] < 0)
				break;
		}
		while (!stopping && wait(NULL) > 0)
			;
		for (int i = 0; i < nkids; i++)
			if (kids[i] > 0)
				kill(kids[i], SIGTERM);
	}
	close(lfd);
	while (wait(NULL) > 0 || errno == EINTR)
		;
	return 0;
}
