# Writes ruby.txt: the method names of Ruby's core classes and modules and of
# the standard library's commonly required ones (instance, private and
# singleton methods; Ruby 3.1 on Debian 12).
#     ruby ruby.rb > ruby.txt
require 'set'; require 'date'; require 'time'; require 'bigdecimal'; require 'pathname'; require 'json'; require 'stringio'; require 'tempfile'; require 'securerandom'; require 'digest'; require 'uri'; require 'logger'; require 'ostruct'; require 'monitor'; require 'forwardable'; require 'erb'; require 'yaml'
mods = [BasicObject, Object, Kernel, Module, Class, Comparable, Enumerable, Enumerator, Enumerator::Lazy, Array, Hash, String, Symbol, Integer, Float, Numeric, Rational, Complex, Range, Proc, Method, UnboundMethod, NilClass, TrueClass, FalseClass, IO, File, File::Stat, Dir, Time, Struct, Exception, Regexp, MatchData, Thread, Mutex, Queue, ConditionVariable, Fiber, Random, Marshal, ObjectSpace, GC, Process, Signal, Math, Encoding, Binding, Set, Date, DateTime, BigDecimal, Pathname, JSON, StringIO, Tempfile, SecureRandom, Digest::SHA256, URI, URI::Generic, Logger, OpenStruct, Monitor, MonitorMixin, Forwardable, ERB, Psych]
names = Set.new
mods.each do |m|
  names.merge(m.instance_methods(false)); names.merge(m.private_instance_methods(false)); names.merge(m.singleton_methods(false))
end
puts names.map(&:to_s).select { |n| n =~ /\A[a-z_][A-Za-z0-9_]*[?!=]?\z/ }.sort
