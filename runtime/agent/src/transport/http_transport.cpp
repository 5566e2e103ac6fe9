// HttpTransport on libcurl's multi interface, driven one transfer at a time: the multi handle owns the
// connection cache, so the connection of one turn is reused by the next, and waiting in our own
// curl_multi_poll loop lets a cancelled request stop within a poll interval (libcurl's progress
// callback, also installed, slows to one call a second while nothing arrives).
#include "transport/http_transport.hpp"

#include "text.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <mutex>
#include <random>
#include <thread>

namespace ptc::agent::detail {
namespace {

using std::chrono::milliseconds;

constexpr std::size_t kMaxHeaderBytes = std::size_t{64} << 10;
constexpr milliseconds kCancelPoll{20};
constexpr milliseconds kIdlePoll{1000};
// Longer than any provider asks to wait; max_backoff caps it much further.
constexpr milliseconds kMaxRetryAfter = std::chrono::hours(24);
constexpr std::string_view kRedacted = "[redacted]";

CURLcode global_init() {
  static std::once_flag once;
  static CURLcode result = CURLE_OK;
  std::call_once(once, [] { result = curl_global_init(CURL_GLOBAL_DEFAULT); });
  return result;
}

const std::string* find_header(const Headers& headers, std::string_view name) {
  for (const auto& [key, value] : headers) {
    if (text::ascii_lower(key) == name) return &value;
  }
  return nullptr;
}

// Retry-After as an IMF-fixdate ("Wed, 21 Oct 2015 07:28:00 GMT"), read without the C locale's
// month names, which a program may have changed.
// In milliseconds, not system_clock's nanoseconds, which overflow before the year 2263.
std::optional<std::chrono::sys_time<milliseconds>> parse_http_date(std::string_view text) {
  static constexpr std::string_view kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const std::string copy(text);
  char weekday[4] = {}, month_name[4] = {};
  int day = 0, year = 0, hour = 0, minute = 0, second = 0, consumed = -1;
  const int fields = std::sscanf(copy.c_str(), "%3[A-Za-z], %2d %3[A-Za-z] %4d %2d:%2d:%2d GMT%n", weekday, &day,
                                 month_name, &year, &hour, &minute, &second, &consumed);
  if (fields != 7 || consumed != static_cast<int>(copy.size())) return std::nullopt;
  const auto month = std::find(std::begin(kMonths), std::end(kMonths), std::string_view(month_name));
  if (month == std::end(kMonths)) return std::nullopt;
  const std::chrono::year_month_day date{std::chrono::year(year),
                                         std::chrono::month(static_cast<unsigned>(month - std::begin(kMonths) + 1)),
                                         std::chrono::day(static_cast<unsigned>(day))};
  if (!date.ok() || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) {
    return std::nullopt;
  }
  return std::chrono::sys_time<milliseconds>(std::chrono::sys_days(date)) + std::chrono::hours(hour) +
         std::chrono::minutes(minute) + std::chrono::seconds(second);
}

std::optional<milliseconds> parse_retry_after_ms(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value < 0) {
    return std::nullopt;
  }
  if (value >= static_cast<double>(kMaxRetryAfter.count())) return kMaxRetryAfter;
  return milliseconds(static_cast<milliseconds::rep>(std::ceil(value)));
}

std::optional<milliseconds> parse_retry_after(std::string_view text, std::chrono::system_clock::time_point now) {
  if (!text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const auto max_seconds = std::chrono::duration_cast<std::chrono::seconds>(kMaxRetryAfter).count();
    long long seconds = 0;
    for (char c : text) {
      seconds = std::min<long long>(seconds * 10 + (c - '0'), max_seconds);
    }
    return std::chrono::seconds(seconds);
  }
  const auto date = parse_http_date(text);
  if (!date) return std::nullopt;
  const auto from = std::chrono::time_point_cast<milliseconds>(now);
  if (*date <= from) return milliseconds(0);
  return std::min(*date - from, kMaxRetryAfter);
}

enum class Stop { none, cancelled, body_limit, header_limit, reader };

// One transfer's state, which libcurl's callbacks fill in.
struct Attempt {
  CURL* easy = nullptr;
  const TransportOptions* options = nullptr;
  const std::function<bool(std::string_view)>* on_data = nullptr;
  const Cancellation* cancellation = nullptr;
  long status = 0;
  Headers headers;
  std::size_t header_bytes = 0;
  std::string body;
  std::size_t streamed_bytes = 0;
  bool delivered = false;  // on_data has been given a byte: no retry from here on
  bool connected = false;  // the request went out (so a timeout is not a connect failure)
  Stop stop = Stop::none;
  std::exception_ptr exception;  // thrown by on_data, held while libcurl unwinds
  char error[CURL_ERROR_SIZE] = {};
};

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto& attempt = *static_cast<Attempt*>(user);
  const std::size_t bytes = size * count;
  attempt.header_bytes += bytes;
  if (attempt.header_bytes > kMaxHeaderBytes) {
    attempt.stop = Stop::header_limit;
    return 0;
  }
  const std::string_view line = text::trim(std::string_view(data, bytes));
  // A status line starts another response (the final one after a 100 Continue): its headers replace
  // the interim one's.
  if (line.starts_with("HTTP/")) {
    attempt.headers.clear();
    attempt.status = 0;
    return bytes;
  }
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) return bytes;
  attempt.headers.emplace_back(text::ascii_lower(text::trim(line.substr(0, colon))),
                               std::string(text::trim(line.substr(colon + 1))));
  return bytes;
}

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto& attempt = *static_cast<Attempt*>(user);
  const std::size_t bytes = size * count;
  const std::size_t limit = attempt.options->max_response_bytes;
  if (attempt.status == 0) curl_easy_getinfo(attempt.easy, CURLINFO_RESPONSE_CODE, &attempt.status);
  const bool success = attempt.status >= 200 && attempt.status < 300;
  if (success && attempt.on_data != nullptr && *attempt.on_data) {
    if (bytes > limit - attempt.streamed_bytes) {
      attempt.stop = Stop::body_limit;
      return 0;
    }
    attempt.streamed_bytes += bytes;
    if (bytes == 0) return 0;
    attempt.delivered = true;
    try {
      if (!(*attempt.on_data)(std::string_view(data, bytes))) {
        attempt.stop = Stop::reader;
        return 0;
      }
    } catch (...) {
      attempt.exception = std::current_exception();
      return 0;
    }
    return bytes;
  }
  if (bytes > limit - attempt.body.size()) {
    attempt.stop = Stop::body_limit;
    return 0;
  }
  attempt.body.append(data, bytes);
  return bytes;
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto& attempt = *static_cast<Attempt*>(user);
  if (attempt.cancellation != nullptr && attempt.cancellation->cancelled()) {
    attempt.stop = Stop::cancelled;
    return 1;
  }
  return 0;
}

class HeaderList {
 public:
  HeaderList() = default;
  HeaderList(const HeaderList&) = delete;
  HeaderList& operator=(const HeaderList&) = delete;
  ~HeaderList() { curl_slist_free_all(list_); }

  bool add(const std::string& line) {
    curl_slist* next = curl_slist_append(list_, line.c_str());
    if (next == nullptr) return false;
    list_ = next;
    return true;
  }
  curl_slist* get() const { return list_; }

 private:
  curl_slist* list_ = nullptr;
};

// The request's headers as libcurl takes them; an error names a header that cannot be sent as it is
// (a line break in a value would start another header: a key pasted with its newline, say).
std::optional<std::string> build_headers(const Headers& headers, HeaderList& list) {
  // Expect: off: libcurl would otherwise hold a large body back for a round trip waiting for 100 Continue.
  if (!list.add("Content-Type: application/json") || !list.add("Expect:")) return "out of memory";
  for (const auto& [name, value] : headers) {
    const bool bad_name =
        name.empty() || name.find_first_of(":\r\n", 0) != std::string::npos || name.find('\0') != std::string::npos;
    if (bad_name) return "cannot send a header named \"" + name + "\"";
    if (value.find_first_of("\r\n") != std::string::npos || value.find('\0') != std::string::npos) {
      return "the value of header " + name + " contains a line break or a NUL";
    }
    // "Name:" would tell libcurl to remove the header; "Name;" sends it empty.
    if (!list.add(value.empty() ? name + ";" : name + ": " + value)) return "out of memory";
  }
  return std::nullopt;
}

long clamp_ms(milliseconds value) {
  return static_cast<long>(std::clamp<milliseconds::rep>(value.count(), 0, std::numeric_limits<long>::max()));
}

CURLcode configure(CURL* easy, const HttpRequest& request, const HeaderList& headers, Attempt& attempt) {
  const TransportOptions& options = *attempt.options;
  const auto max_file = static_cast<curl_off_t>(std::min<std::size_t>(options.max_response_bytes,
                                                                      std::numeric_limits<curl_off_t>::max()));
  curl_easy_reset(easy);
  // Evaluated in order (a braced list guarantees it); the first failure is the one reported.
  const CURLcode results[] = {
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, attempt.error),
    curl_easy_setopt(easy, CURLOPT_URL, request.url.c_str()),
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https"),
#else
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS, static_cast<long>(CURLPROTO_HTTP | CURLPROTO_HTTPS)),
#endif
    curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L),
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, 1L),
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, 2L),
    // No process-wide signal handling from a library in a threaded program. SIGPIPE cannot come of it on
    // Linux: libcurl sends with MSG_NOSIGNAL, TLS included (OpenSSL writes through libcurl's own BIO).
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L),
    curl_easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L),
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, clamp_ms(options.connect_timeout)),
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, clamp_ms(options.total_timeout)),
    curl_easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE, max_file),
    curl_easy_setopt(easy, CURLOPT_POST, 1L),
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size())),
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, request.body.data()),
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers.get()),
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, on_header),
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, &attempt),
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body),
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &attempt),
    curl_easy_setopt(easy, CURLOPT_NOPROGRESS, 0L),
    curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, on_progress),
    curl_easy_setopt(easy, CURLOPT_XFERINFODATA, &attempt),
  };
  for (CURLcode result : results) {
    if (result != CURLE_OK) return result;
  }
  return CURLE_OK;
}

CURLcode transfer_result(CURLM* multi, CURL* easy) {
  int queued = 0;
  CURLcode result = CURLE_GOT_NOTHING;
  while (CURLMsg* message = curl_multi_info_read(multi, &queued)) {
    if (message->msg == CURLMSG_DONE && message->easy_handle == easy) result = message->data.result;
  }
  return result;
}

void multi_failed(Attempt& attempt, CURLMcode code) {
  std::snprintf(attempt.error, sizeof attempt.error, "%s", curl_multi_strerror(code));
}

CURLcode run(CURLM* multi, CURL* easy, Attempt& attempt) {
  if (const CURLMcode added = curl_multi_add_handle(multi, easy); added != CURLM_OK) {
    multi_failed(attempt, added);
    return CURLE_FAILED_INIT;
  }
  const int poll_ms = static_cast<int>((attempt.cancellation != nullptr ? kCancelPoll : kIdlePoll).count());
  CURLcode result = CURLE_OK;
  for (;;) {
    int running = 0;
    CURLMcode code = curl_multi_perform(multi, &running);
    if (code == CURLM_OK && running == 0) {
      result = transfer_result(multi, easy);
      break;
    }
    if (code == CURLM_OK && attempt.cancellation != nullptr && attempt.cancellation->cancelled()) {
      attempt.stop = Stop::cancelled;
      result = CURLE_ABORTED_BY_CALLBACK;
      break;
    }
    if (code == CURLM_OK) code = curl_multi_poll(multi, nullptr, 0, poll_ms, nullptr);
    if (code != CURLM_OK) {
      multi_failed(attempt, code);
      result = CURLE_FAILED_INIT;
      break;
    }
  }
  if (attempt.status == 0) curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &attempt.status);
  long request_bytes = 0;
  curl_easy_getinfo(easy, CURLINFO_REQUEST_SIZE, &request_bytes);
  attempt.connected = request_bytes > 0 || attempt.header_bytes > 0;
  curl_multi_remove_handle(multi, easy);
  // The handle would otherwise keep pointers into this attempt until the next post.
  curl_easy_reset(easy);
  return result;
}

// The failures worth another try: the request may never have reached the server, or the connection
// broke before the answer began.
bool connection_failure(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM: return true;
    default: return false;
  }
}

// What one attempt came to: a final result, or a reason to try again.
struct Verdict {
  std::optional<Result<HttpReply>> done;
  std::string reason;
  std::optional<milliseconds> wait;  // what the server asked for
  std::optional<HttpReply> reply;    // a retryable reply, returned as it is once the retries are spent
};

}  // namespace

std::string redact(std::string text, const std::vector<std::string>& secrets) {
  for (const std::string& secret : secrets) {
    if (secret.empty()) continue;
    for (auto at = text.find(secret); at != std::string::npos; at = text.find(secret, at + kRedacted.size())) {
      text.replace(at, secret.size(), kRedacted);
    }
  }
  return text;
}

bool retryable_status(long status) {
  switch (status) {
    case 408:
    case 409:
    case 429:
    case 500:
    case 502:
    case 503:
    case 504:
    case 529: return true;
    default: return false;
  }
}

std::optional<milliseconds> retry_after(const Headers& headers, std::chrono::system_clock::time_point now) {
  if (const std::string* ms = find_header(headers, "retry-after-ms")) {
    if (auto wait = parse_retry_after_ms(text::trim(*ms))) return wait;
  }
  if (const std::string* value = find_header(headers, "retry-after")) return parse_retry_after(text::trim(*value), now);
  return std::nullopt;
}

struct HttpTransport::Impl {
  explicit Impl(TransportOptions transport_options) : options(std::move(transport_options)) {
    if (options.provider.empty()) options.provider = "http";
    if (global_init() != CURLE_OK) return;
    easy = curl_easy_init();
    multi = curl_multi_init();
  }
  ~Impl() {
    if (easy != nullptr) curl_easy_cleanup(easy);
    if (multi != nullptr) curl_multi_cleanup(multi);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  Error fail(const std::string& text) const { return Error{redact(options.provider + ": " + text, options.secrets)}; }
  Error cancelled(const Cancellation& cancellation) const {
    std::string reason = cancellation.reason();
    return fail("request cancelled (" + (reason.empty() ? std::string("cancelled") : reason) + ")");
  }
  Verdict judge(Attempt& attempt, CURLcode code) const;
  milliseconds backoff(int retry, std::optional<milliseconds> asked);

  TransportOptions options;
  CURL* easy = nullptr;
  CURLM* multi = nullptr;
  std::mt19937_64 random{std::random_device{}()};
};

Verdict HttpTransport::Impl::judge(Attempt& attempt, CURLcode code) const {
  const auto done = [](Result<HttpReply> result) { return Verdict{std::move(result), {}, {}, {}}; };
  switch (attempt.stop) {
    case Stop::cancelled: return done(cancelled(*attempt.cancellation));
    case Stop::body_limit: break;
    case Stop::header_limit:
      return done(fail("response headers larger than the limit of " + std::to_string(kMaxHeaderBytes) + " bytes"));
    case Stop::reader: return done(fail("response abandoned by its reader"));
    case Stop::none: break;
  }
  if (attempt.stop == Stop::body_limit || code == CURLE_FILESIZE_EXCEEDED) {
    return done(fail("response larger than the limit of " + std::to_string(options.max_response_bytes) + " bytes"));
  }
  if (code == CURLE_OK) {
    HttpReply reply{attempt.status, std::move(attempt.headers), std::move(attempt.body)};
    if (!retryable_status(reply.status)) return done(std::move(reply));
    auto wait = retry_after(reply.headers, std::chrono::system_clock::now());
    return Verdict{std::nullopt, "HTTP " + std::to_string(reply.status), wait, std::move(reply)};
  }
  const std::string text = attempt.error[0] != '\0' ? attempt.error : curl_easy_strerror(code);
  if (attempt.delivered) return done(fail("the response broke off after it began: " + text));
  if (code == CURLE_OPERATION_TIMEDOUT && attempt.connected) return done(fail("request timed out: " + text));
  if (connection_failure(code)) return Verdict{std::nullopt, "connection failed: " + text, std::nullopt, std::nullopt};
  return done(fail("request failed: " + text));
}

milliseconds HttpTransport::Impl::backoff(int retry, std::optional<milliseconds> asked) {
  const milliseconds cap = std::max(options.max_backoff, milliseconds(0));
  milliseconds ceiling = std::clamp(options.initial_backoff, milliseconds(0), cap);
  for (int i = 1; i < retry && ceiling < cap; ++i) ceiling = ceiling > cap / 2 ? cap : ceiling * 2;
  std::uniform_int_distribution<milliseconds::rep> pick(0, ceiling.count());
  milliseconds delay(pick(random));
  if (asked) delay = std::max(delay, std::min(*asked, cap));
  return delay;
}

HttpTransport::HttpTransport(TransportOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

HttpTransport::~HttpTransport() = default;

Result<HttpReply> HttpTransport::post(const HttpRequest& request, const std::function<bool(std::string_view)>& on_data,
                                      const Cancellation* cancellation,
                                      const std::function<void(const RetryNotice&)>& on_retry) {
  Impl& impl = *impl_;
  if (impl.easy == nullptr || impl.multi == nullptr) return impl.fail("libcurl could not be initialised");
  HeaderList headers;
  if (auto problem = build_headers(request.headers, headers)) return impl.fail(*problem);
  const int retries = std::max(impl.options.max_retries, 0);
  for (int attempt_index = 0;; ++attempt_index) {
    if (cancellation != nullptr && cancellation->cancelled()) return impl.cancelled(*cancellation);
    Attempt attempt;
    attempt.easy = impl.easy;
    attempt.options = &impl.options;
    attempt.on_data = &on_data;
    attempt.cancellation = cancellation;
    if (const CURLcode code = configure(impl.easy, request, headers, attempt); code != CURLE_OK) {
      curl_easy_reset(impl.easy);
      return impl.fail(std::string("could not set up the request: ") + curl_easy_strerror(code));
    }
    const CURLcode code = run(impl.multi, impl.easy, attempt);
    if (attempt.exception) std::rethrow_exception(attempt.exception);
    Verdict verdict = impl.judge(attempt, code);
    if (verdict.done) return std::move(*verdict.done);
    if (attempt_index >= retries) {
      if (verdict.reply) return std::move(*verdict.reply);
      const int attempts = attempt_index + 1;
      return impl.fail(verdict.reason + " (after " + std::to_string(attempts) +
                       (attempts == 1 ? " attempt)" : " attempts)"));
    }
    const milliseconds delay = impl.backoff(attempt_index + 1, verdict.wait);
    if (on_retry) on_retry(RetryNotice{attempt_index + 1, redact(verdict.reason, impl.options.secrets), delay});
    if (cancellation != nullptr) {
      if (cancellation->wait_for(delay)) return impl.cancelled(*cancellation);
    } else {
      std::this_thread::sleep_for(delay);
    }
  }
}

}  // namespace ptc::agent::detail
