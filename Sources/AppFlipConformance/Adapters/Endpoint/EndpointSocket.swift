import Foundation

/// One TCP connection over POSIX sockets whose every wait ends at a deadline or on cancellation (RFC 9293), so a server
/// that never answers, or answers a byte at a time, cannot hold the run.
///
/// Waits are `poll(2)` slices of at most 50 ms, so cancelling (a step timeout, SIGINT) takes effect within one slice.
final class EndpointSocket {
  private let descriptor: Int32
  /// The request it serves: its deadline, its cancellation, and its URL and timeout for the errors.
  private let bounds: EndpointTransport.Bounds

  private init(descriptor: Int32, bounds: EndpointTransport.Bounds) {
    self.descriptor = descriptor
    self.bounds = bounds
  }

  deinit { close(descriptor) }

  /// Reads from a descriptor this connection now owns (a child process's output pipe), with the same bounded waits.
  static func reading(descriptor: Int32, bounds: EndpointTransport.Bounds) -> EndpointSocket {
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    return EndpointSocket(descriptor: descriptor, bounds: bounds)
  }

  /// Connects to the first address of `host` (a name, an IPv4 literal or an IPv6 literal without brackets) that answers;
  /// `EndpointError.unreachable` when none does.
  static func connect(host: String, port: String, bounds: EndpointTransport.Bounds) throws -> EndpointSocket {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if os(Linux)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    hints.ai_flags = AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, port, &hints, &list)
    guard status == 0, let first = list else {
      throw EndpointError.unreachable(
        url: bounds.url, reason: "cannot resolve the host (\(String(cString: gai_strerror(status))))")
    }
    defer { freeaddrinfo(list) }
    var lastError = "no address"
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let address = entry {
      entry = address.pointee.ai_next
      let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
      guard descriptor >= 0 else {
        lastError = Self.errorText()
        continue
      }
      let connection = EndpointSocket(descriptor: descriptor, bounds: bounds)
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
      #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
      #endif
      if Foundation.connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) != 0 {
        guard errno == EINPROGRESS else {
          lastError = Self.errorText()
          continue
        }
        try connection.wait(for: Int16(POLLOUT))
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
        guard error == 0 else {
          lastError = String(cString: strerror(error))
          continue
        }
      }
      return connection
    }
    throw EndpointError.unreachable(url: bounds.url, reason: lastError)
  }

  /// Sends every byte, waiting for room as needed.
  func send(_ bytes: [UInt8]) throws {
    var sent = 0
    while sent < bytes.count {
      let count = bytes.withUnsafeBytes { buffer in
        #if os(Linux)
          Foundation.send(descriptor, buffer.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
        #else
          Foundation.send(descriptor, buffer.baseAddress! + sent, bytes.count - sent, 0)
        #endif
      }
      if count > 0 {
        sent += count
      } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
        try wait(for: Int16(POLLOUT))
      } else {
        throw EndpointError.connectionLost(url: bounds.url, reason: Self.errorText())
      }
    }
  }

  /// The next bytes the server (or pipe) sends, at most `limit`; empty when it closed the connection.
  func receive(upTo limit: Int) throws -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: max(1, min(limit, 65536)))
    while true {
      let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
      if count >= 0 { return Array(buffer.prefix(count)) }
      guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
        if errno == ECONNRESET { return [] }
        throw EndpointError.connectionLost(url: bounds.url, reason: Self.errorText())
      }
      try wait(for: Int16(POLLIN))
    }
  }

  /// Waits until the socket is ready for `events`, in slices, until the deadline (`EndpointError.timedOut`) or
  /// cancellation (`CancellationError`).
  private func wait(for events: Int16) throws {
    while true {
      if bounds.cancelled() { throw CancellationError() }
      let now = DispatchTime.now().uptimeNanoseconds
      guard now < bounds.deadline else { throw EndpointError.timedOut(url: bounds.url, seconds: bounds.timeout) }
      let slice = Int32(min(50, (bounds.deadline - now) / 1_000_000 + 1))
      var entry = pollfd(fd: descriptor, events: events, revents: 0)
      let ready = poll(&entry, 1, slice)
      if ready > 0 { return }
      if ready < 0 && errno != EINTR { throw EndpointError.connectionLost(url: bounds.url, reason: Self.errorText()) }
    }
  }

  private static func errorText() -> String { String(cString: strerror(errno)) }
}
