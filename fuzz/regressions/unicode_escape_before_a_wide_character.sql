SELECT U&'\+abcdeé', U&'\abé';
