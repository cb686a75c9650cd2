package livecheck

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Server is the service of MODEL.md on a real HTTP server on 127.0.0.1:
// GET /c/N is client N's attempt (its header Attempt: the attempts it made
// before, short-circuited ones included), answered 200 when served and 503
// otherwise (no Retry-After: the clients wait their own waits); GET /warm
// opens a client's connection before the start and is not logged. Every
// attempt's arrival is taken from the server's monotonic clock, under the
// lock that hands attempts to the service one at a time, so the log is in
// the order of arrival, as MODEL.md takes attempts.
type Server struct {
	sc  Scenario
	URL string

	ln   net.Listener
	http *http.Server

	mu       sync.Mutex
	start    time.Time // the start, 0 ms; zero until Start
	log      []Entry
	handling []time.Duration // each entry's time in the handler until it is answered (or its client left)
	left     []bool          // the entry's client left before its answer: its connection closed
	made     []int32         // attempts per client
	slots    *slots
	queue    *queue
	late     []time.Duration // how late the queue's worker took each millisecond
	working  chan struct{}   // closed when the queue's worker has stopped
	stop     context.CancelFunc
}

// NewServer listens on a random port of 127.0.0.1 and serves the
// scenario's service; the clock starts at Start.
func NewServer(sc Scenario) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	n := sc.AllClients()
	s := &Server{sc: sc, URL: "http://" + ln.Addr().String(), ln: ln,
		log: make([]Entry, 0, n*sc.Policy().Attempts), handling: make([]time.Duration, 0, n*sc.Policy().Attempts),
		left: make([]bool, 0, n*sc.Policy().Attempts),
		made: make([]int32, n+1)}
	if sc.Queue.On() {
		s.queue = newQueue(sc.Queue, sc.Outage, sc.Capacity)
	} else {
		s.slots = newSlots(sc.Outage, sc.Slot, sc.Capacity)
	}
	s.http = &http.Server{Handler: s, ReadHeaderTimeout: time.Minute}
	go s.http.Serve(ln) //nolint:errcheck // Serve returns ErrServerClosed at Close
	return s, nil
}

// attemptHeader carries a client's count of its attempts before this one.
const attemptHeader = "Attempt"

// Start sets the clock's 0 ms to t0 and, for a queue, starts its worker.
func (s *Server) Start(t0 time.Time) {
	s.mu.Lock()
	s.start = t0
	s.mu.Unlock()
	if s.queue != nil {
		ctx, cancel := context.WithCancel(context.Background())
		s.stop = cancel
		s.working = make(chan struct{})
		go s.work(ctx)
	}
}

// Drain waits until the queue is empty, or ctx ends, and stops its
// worker: the service works off every expired request, as the model's run
// ends when the queue is empty.
func (s *Server) Drain(ctx context.Context) error {
	if s.queue == nil {
		return nil
	}
	defer func() {
		s.stop()
		<-s.working
	}()
	for {
		s.mu.Lock()
		n := len(s.queue.waiting)
		s.mu.Unlock()
		if n == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return errors.New("the queue did not drain")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// Close stops the server and closes its connections.
func (s *Server) Close() error { return s.http.Close() }

// Log returns a copy of the server's log, the time each entry spent in the
// handler, and the queue's peak.
func (s *Server) Log() (log []Entry, handling []time.Duration, queuePeak int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.queue != nil {
		queuePeak = s.queue.peak
	}
	return append([]Entry(nil), s.log...), append([]time.Duration(nil), s.handling...), queuePeak
}

// WorkerLateness is how late the queue's worker took each millisecond
// after its end; none without a queue.
func (s *Server) WorkerLateness() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.late...)
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	entered := time.Now()
	if r.URL.Path == "/warm" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	id, ok := strings.CutPrefix(r.URL.Path, "/c/")
	c, err := strconv.Atoi(id)
	if !ok || err != nil || c < 1 || c >= len(s.made) {
		http.Error(w, "no such client", http.StatusNotFound)
		return
	}
	s.mu.Lock()
	if s.start.IsZero() {
		s.mu.Unlock()
		http.Error(w, "not started", http.StatusConflict)
		return
	}
	at := time.Since(s.start)
	// The client's own count of its attempts before this one, its
	// breaker's short-circuits among them: a crowd client's first attempt
	// is the trigger, and one whose first was short-circuited sends no
	// trigger.
	k := int(s.made[c])
	if n, err := strconv.Atoi(r.Header.Get(attemptHeader)); err == nil {
		k = n
	}
	crowdFirst := c <= s.sc.Clients && k == 0
	s.made[c]++
	i := len(s.log)
	s.log = append(s.log, Entry{At: at, Done: at, Client: int32(c)})
	s.handling = append(s.handling, 0)
	s.left = append(s.left, false)
	var o Outcome
	if s.slots != nil {
		o = s.slots.admit(at, crowdFirst)
	} else {
		var waits bool
		answer := make(chan Outcome, 1)
		if o, waits = s.queue.arrive(ms(at), crowdFirst, queued{client: int32(c), index: i, answer: answer}); waits {
			s.mu.Unlock()
			select {
			case o = <-answer:
			case <-r.Context().Done():
				// The client timed out: the request stays queued, and
				// the service will find that it has expired.
				s.mu.Lock()
				s.left[i] = true
				s.handling[i] = time.Since(entered)
				s.mu.Unlock()
				return
			}
			s.reply(w, o)
			s.setHandling(i, entered)
			return
		}
	}
	s.log[i].Outcome = o
	s.handling[i] = time.Since(entered)
	s.mu.Unlock()
	s.reply(w, o)
}

func (s *Server) setHandling(i int, entered time.Time) {
	s.mu.Lock()
	s.handling[i] = time.Since(entered)
	s.mu.Unlock()
}

func (s *Server) reply(w http.ResponseWriter, o Outcome) {
	if o == Served {
		w.WriteHeader(http.StatusOK)
		return
	}
	w.WriteHeader(http.StatusServiceUnavailable)
}

// work takes the queue's milliseconds in turn, each once it is over (after
// its arrivals), until ctx ends: woken late, it takes every millisecond it
// missed, each with its own capacity and only the requests that had
// arrived by then, so that lateness delays the answers but does not change
// what the service does.
func (s *Server) work(ctx context.Context) {
	defer close(s.working)
	for {
		s.mu.Lock()
		next := s.queue.next
		s.mu.Unlock()
		wake := s.start.Add(time.Duration(next+1) * time.Millisecond)
		if d := time.Until(wake); d > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(d):
			}
		} else if ctx.Err() != nil {
			return
		}
		s.mu.Lock()
		now := time.Since(s.start)
		for t := s.queue.next; t < ms(now); t++ {
			s.late = append(s.late, now-time.Duration(t+1)*time.Millisecond)
			s.queue.serve(t, func(r queued) bool { return s.left[r.index] }, func(r queued, o Outcome) {
				s.log[r.index].Outcome = o
				s.log[r.index].Done = time.Duration(t) * time.Millisecond
				r.answer <- o
			})
		}
		s.mu.Unlock()
	}
}
