<?php
// Writes php.txt: the method and property names of PHP's built-in classes,
// interfaces and traits (those of the extensions loaded: php-cli with xml,
// mbstring, intl, curl, mysql, sqlite3, gd, bcmath on Debian 12, PHP 8.2).
//     php php.php > php.txt
$n = [];
foreach (array_merge(get_declared_classes(), get_declared_interfaces(), get_declared_traits()) as $c) {
    $r = new ReflectionClass($c);
    if (!$r->isInternal()) continue;
    foreach ($r->getMethods() as $m) $n[$m->getName()] = 1;
    foreach ($r->getProperties() as $p) $n[$p->getName()] = 1;
}
$k = array_keys($n);
sort($k);
echo implode("\n", $k), "\n";
